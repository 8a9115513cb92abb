#!/usr/bin/env bash
# Session 36, four GPUs of one host (main at 8092617's code): README's main job, `run` of
# every other group at 2^18 (each device and across all), and `bench` of every group with
# the cluster rows (BN254 G1 with auto and windows); every row verified.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=$O/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
nproc >> $S
timeout 120 $G/bin/wgpu-msm > $R/main-job.txt 2>&1; echo "main job rc=$? t=$(el)" >> $S
for cg in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $cg
  ok 200 && { timeout 100 $G/bin/wgpu-msm run --curve $1 --group $2 --log-size 18 > $R/run-$1-$2.txt 2>&1; echo "run $1 $2 rc=$? t=$(el)" >> $S; }
done
ok 250 && { timeout 150 $G/bin/wgpu-msm bench --sizes 20,22,24 --repeat 7 --ark-max 20 --strategy auto,windows --json $R/g1.json > $R/bench-g1.txt 2>&1; echo "bench g1 rc=$? t=$(el)" >> $S; }
ok 380 && { timeout 80 $G/bin/wgpu-msm bench --curve bls12-381 --sizes 20,24 --repeat 7 --ark-max 0 > $R/bench-bls1.txt 2>&1; echo "bench bls1 rc=$? t=$(el)" >> $S; }
ok 450 && { timeout 70 $G/bin/wgpu-msm bench --group g2 --sizes 20,24 --repeat 7 --ark-max 0 > $R/bench-g2.txt 2>&1; echo "bench g2 rc=$? t=$(el)" >> $S; }
ok 510 && { timeout 60 $G/bin/wgpu-msm bench --curve bls12-381 --group g2 --sizes 20,22 --repeat 7 --ark-max 0 > $R/bench-bls2.txt 2>&1; echo "bench bls2 rc=$? t=$(el)" >> $S; }
grep -E "one MSM|verified|FAILED" $R/main-job.txt >> $S
for f in $R/run-*.txt; do echo "== $(basename $f)" >> $S; grep -E "one MSM|verified|FAILED" $f >> $S; done
for f in $R/bench-*.txt; do echo "== $(basename $f)" >> $S; grep -E "^(11-27|2026-11-27) .*(cluster|#0)|verified|FAILED" $f | cut -c1-120 >> $S; done
