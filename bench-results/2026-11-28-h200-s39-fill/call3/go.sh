#!/usr/bin/env bash
# Session 39 call 3: resident MSMs (bases on the device, scalars from the host) with the
# first pass's scalar stages submitted as soon as they are recorded and the scalars
# written (wgpu-msm), against 07826b2 (wgpu-msm-before), and the overlap threshold
# (WGPU_MSM_RESIDENT_OVERLAP_LOG2 21 default / 20 / 19) with it. BN254 G1 2^17-2^21,
# median of 9, two rounds alternating; tests gpu and bounded first.
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
for t in gpu bounded; do
  WGPU_MSM_CACHE_DIR=/tmp/cache-wgpu-msm timeout 150 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
run() { # name threshold binary
  ok 480 && WGPU_MSM_RESIDENT_OVERLAP_LOG2=$2 WGPU_MSM_CACHE_DIR=/tmp/cache-$3 timeout 60 $G/bin/$3 bench --ark-max 0 --sizes 17,18,19,20,21 --repeat 9 > $R/$1.txt 2>&1
  echo "$1 rc=$? t=$(el)" >> $S
}
for r in 1 2; do
  run before-21-$r 21 wgpu-msm-before
  run early-21-$r 21 wgpu-msm
  run early-20-$r 20 wgpu-msm
  run early-19-$r 19 wgpu-msm
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/before-*.txt $R/early-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | grep -E "resident|device|oneshot" | awk -v k=$k '{print k, $0}' | cut -c1-130 >> $S; done
ls -la $O >> $S
