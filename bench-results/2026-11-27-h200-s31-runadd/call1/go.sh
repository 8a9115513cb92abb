#!/usr/bin/env bash
# Session 31 call 1: runs that start from zero add through `run_add` (every lane runs
# the addition, a zero accumulator replaced by a stand-in and the sum dropped) against
# the early return of `xyzz_madd` (WGPU_MSM_DIAG_RUN_ADD=0, diag-run-add.patch).
# v40 call 7: the first pass of BN254 G2 2^24 all resident at 19 bits took 68 ms against
# 47.5 for seeded passes. Parity tests first, then the A/B, alternating.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
run() { # name env args...
  local name=$1; local e=$2; shift 2
  env $e timeout 100 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in gpu bls12_381 g2; do
  timeout 150 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
OFF=WGPU_MSM_DIAG_RUN_ADD=0
ON=X=1
P="--profile --timeline 24"
for r in 1 2; do
  run g2c19-off-$r $OFF --curve bn254 --group g2 --sizes 24 --repeat 3 --window 19 $P
  run g2c19-on-$r $ON --curve bn254 --group g2 --sizes 24 --repeat 3 --window 19 $P
done
for r in 1 2; do
  run g2-off-$r $OFF --curve bn254 --group g2 --sizes 20,22,24 --repeat 5 $P
  run g2-on-$r $ON --curve bn254 --group g2 --sizes 20,22,24 --repeat 5 $P
done
for r in 1 2; do
  run g1-off-$r $OFF --sizes 20,24 --repeat 7 $P
  run g1-on-$r $ON --sizes 20,24 --repeat 7 $P
done
run bls1-off $OFF --curve bls12-381 --group g1 --sizes 22,24 --repeat 5 $P
run bls1-on $ON --curve bls12-381 --group g1 --sizes 22,24 --repeat 5 $P
run bls2-off $OFF --curve bls12-381 --group g2 --sizes 22,24 --repeat 3 $P
run bls2-on $ON --curve bls12-381 --group g2 --sizes 22,24 --repeat 3 $P
run p32-off $OFF --arith portable32 --sizes 20,22 --repeat 5 --profile
run p32-on $ON --arith portable32 --sizes 20,22 --repeat 5 --profile
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do
  k=$(basename $f .txt)
  grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$k '{print k, $0}' | cut -c1-120 >> $S
  sed -n '/timeline of #0 NVIDIA H200, device/,/^$/p' $f | grep -E "accumulate" | awk -v k=$k '{print k, $0}' | cut -c1-90 >> $S
done
