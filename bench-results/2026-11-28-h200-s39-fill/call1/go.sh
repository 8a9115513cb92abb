#!/usr/bin/env bash
# Session 39 call 1: (a) the budget fill with the smaller plan's windows (wgpu-msm,
# windows-fill.patch over a36c64d) against a36c64d (wgpu-msm-before): BLS12-381 G1
# one-shot under 1 GiB at 2^24 and 2^22, two rounds alternating; tests bls12_381 and
# bounded first. (b) `arith` with 8 independent chains in the u32 and dot4 kernels
# (wgpu-msm) against the 4 coupled chains of a36c64d: is dot4U8Packed's 0.70x of the
# multiply-add rate latency or throughput?
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
for t in bls12_381 bounded; do
  WGPU_MSM_CACHE_DIR=/tmp/cache-wgpu-msm timeout 100 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
for r in 1 2; do
  for b in wgpu-msm-before wgpu-msm; do
    ok 300 && WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout 90 $G/bin/$b bench --ark-max 0 --curve bls12-381 --group g1 --sizes 22,24 --repeat 7 --budget 1GiB > $R/$b-$r.txt 2>&1
    echo "$b-$r rc=$? t=$(el)" >> $S
  done
done
for r in 1 2; do
  for b in wgpu-msm-before wgpu-msm; do
    ok 450 && WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout 60 $G/bin/$b arith --threads 262144 --iters 16384 > $R/arith-$b-$r.txt 2>&1
    echo "arith-$b-$r rc=$? t=$(el)" >> $S
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/wgpu*.txt; do k=$(basename $f .txt); grep -E "#0 NVIDIA" $f | grep -E "oneshot|resident|device" | awk -v k=$k '{print k, $0}' | cut -c1-120 >> $S; done
for f in $R/arith*.txt; do k=$(basename $f .txt); grep -E "NVIDIA" $f | awk -v k=$k '{print k, $0}' | cut -c1-160 >> $S; done
ls -la $O >> $S
