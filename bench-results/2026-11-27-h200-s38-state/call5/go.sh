#!/usr/bin/env bash
# Session 38 call 5 (one H200; wgpu-msm = 0f434fa, the budget fill in its final form):
# the GPU tests (gpu with the CUDA parity vectors, bounded, g2 with its ignored tests,
# bls12_381), then BN254 G1 one-shot under 1 GiB at 2^24 and 2^26 and unbudgeted 2^24
# in all three modes.
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
export WGPU_MSM_CACHE_DIR=/tmp/cache
for t in gpu bounded g2 bls12_381; do
  a=""; [ $t = g2 ] && a="--include-ignored"
  timeout 200 $G/bin/$t $a --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
timeout 30 $G/bin/wgpu-msm list > $R/list.txt 2>&1; grep H200 $R/list.txt >> $S
ok 400 && timeout 90 $G/bin/wgpu-msm bench --ark-max 0 --sizes 24,26 --repeat 7 --budget 1GiB > $R/b1g.txt 2>&1; echo "b1g rc=$? t=$(el)" >> $S
ok 460 && timeout 40 $G/bin/wgpu-msm bench --ark-max 0 --sizes 24 --repeat 7 > $R/none.txt 2>&1; echo "none rc=$? t=$(el)" >> $S
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/b1g.txt $R/none.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ NVIDIA H200 " $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
ls -la $O >> $S
