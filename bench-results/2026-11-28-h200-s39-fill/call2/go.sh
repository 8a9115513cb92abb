#!/usr/bin/env bash
# Session 39 call 2: resident MSMs (bases on the device, scalars from the host) under a
# budget of 1 GiB on top of the bases (`bench --resident-budget`): the fill with the
# fitting plan's windows, climbing (wgpu-msm: BN254 G2 passes of 3.5 * 2^20 points,
# BLS12-381 G2 3 * 2^20) against a36c64d's choice with the same bench flag
# (wgpu-msm-before: passes of 2^20). 2^24, alternating; tests g2 and bounded first.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
for t in bounded g2; do
  WGPU_MSM_CACHE_DIR=/tmp/cache-wgpu-msm timeout 100 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
for r in 1 2; do
  for b in wgpu-msm-before wgpu-msm; do
    ok 250 && WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout 70 $G/bin/$b bench --ark-max 0 --curve bn254 --group g2 --sizes 24 --repeat 7 --resident-budget 1GiB > $R/g2-$b-$r.txt 2>&1
    echo "g2-$b-$r rc=$? t=$(el)" >> $S
  done
done
for r in 1 2; do
  for b in wgpu-msm-before wgpu-msm; do
    ok 430 && WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout 90 $G/bin/$b bench --ark-max 0 --curve bls12-381 --group g2 --sizes 24 --repeat 5 --resident-budget 1GiB > $R/bls2-$b-$r.txt 2>&1
    echo "bls2-$b-$r rc=$? t=$(el)" >> $S
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g2-*.txt $R/bls2-*.txt; do k=$(basename $f .txt); grep -E "#0 NVIDIA" $f | grep -E "oneshot|resident|device" | awk -v k=$k '{print k, $0}' | cut -c1-120 >> $S; done
ls -la $O >> $S
