#!/usr/bin/env bash
# Session 36 call 3 (two GPUs of one host; main at 2473688, code = 793f994): README's main
# job, one run per group at 2^18 (each device and the cluster), the cluster tests, and
# the cluster bench of BN254 G1 (auto and windows) and BLS12-381 G1 / BN254 G2 (auto).
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
$G/bin/wgpu-msm list > $R/list.txt 2>&1; cat $R/list.txt >> $S
timeout 150 $G/bin/wgpu-msm > $R/main-job.txt 2>&1; echo "main job rc=$? t=$(el)" >> $S
for cg in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $cg
  ok 300 && { timeout 100 $G/bin/wgpu-msm run --curve $1 --group $2 --log-size 18 > $R/run-$1-$2.txt 2>&1; echo "run $1 $2 rc=$? t=$(el)" >> $S; }
done
ok 330 && { timeout 120 $G/bin/cluster --test-threads 1 > $R/test-cluster.txt 2>&1; echo "test cluster rc=$? t=$(el)" >> $S; grep "test result" $R/test-cluster.txt >> $S; }
ok 400 && { timeout 150 $G/bin/wgpu-msm bench --sizes 20,22,24 --repeat 7 --ark-max 20 --strategy auto,windows --json $R/g1.json > $R/bench-g1.txt 2>&1; echo "bench g1 rc=$? t=$(el)" >> $S; }
ok 480 && { timeout 90 $G/bin/wgpu-msm bench --curve bls12-381 --sizes 20,24 --repeat 7 --ark-max 0 > $R/bench-bls1.txt 2>&1; echo "bench bls1 rc=$? t=$(el)" >> $S; }
ok 530 && { timeout 60 $G/bin/wgpu-msm bench --group g2 --sizes 20,22 --repeat 7 --ark-max 0 > $R/bench-g2.txt 2>&1; echo "bench g2 rc=$? t=$(el)" >> $S; }
tail -25 $R/main-job.txt >> $S
for f in $R/run-*.txt; do echo "== $f" >> $S; tail -8 $f >> $S; done
for f in $R/bench-*.txt; do echo "== $f" >> $S; grep -E "^2026-.* (oneshot|resident|device) " $f | cut -c1-130 >> $S; done
