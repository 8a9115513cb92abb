#!/usr/bin/env bash
# Session 31 call 3: `xyzz_madd_run` on the register machine, leaner: p's registers of a
# lane whose accumulator is zero are patched after the load (X = a.x + 1, ZZ = 1)
# instead of a stand-in point selected before it (call 2's version cost BLS12-381 G2's
# seeded passes 1.4%). Against xyzz_madd's early return (WGPU_MSM_DIAG_RUN_ADD=0), and
# 19-bit windows at 2^24 for every mode with it.
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
run g2-off $OFF --curve bn254 --group g2 --sizes 20,22,24 --repeat 5 $P
run g2-on $ON --curve bn254 --group g2 --sizes 20,22,24 --repeat 5 $P
run g2c19-on $ON --curve bn254 --group g2 --sizes 24 --repeat 5 --window 19 $P
for r in 1 2; do
  run bls2-off-$r $OFF --curve bls12-381 --group g2 --sizes 20,22,24 --repeat 3 $P
  run bls2-on-$r $ON --curve bls12-381 --group g2 --sizes 20,22,24 --repeat 3 $P
done
run bls2c19-off $OFF --curve bls12-381 --group g2 --sizes 24 --repeat 3 --window 19 $P
run bls2c19-on $ON --curve bls12-381 --group g2 --sizes 24 --repeat 3 --window 19 $P
run bls1-off $OFF --curve bls12-381 --group g1 --sizes 20,22,24 --repeat 5 $P
run bls1-on $ON --curve bls12-381 --group g1 --sizes 20,22,24 --repeat 5 $P
run bls1c19-on $ON --curve bls12-381 --group g1 --sizes 24 --repeat 5 --window 19 $P
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do
  k=$(basename $f .txt)
  grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$k '{print k, $0}' | cut -c1-120 >> $S
  sed -n '/timeline of #0 NVIDIA H200, device/,/^$/p' $f | grep -E "accumulate" | awk -v k=$k '{print k, $0}' | cut -c1-90 >> $S
done
