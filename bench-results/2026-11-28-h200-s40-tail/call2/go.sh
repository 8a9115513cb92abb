#!/usr/bin/env bash
# Session 40 call 2 (main at d4df3ad): the latency of one warp's field multiply and
# mixed addition (`arith` with one, a few and one workgroup an SM), and how the 2^16
# BN254 G1 tail (fold, collect, reduce) moves with the accumulation's threads and the
# reduction's segments.
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
run() { # name limit args...
  local name=$1; local lim=$2; shift 2
  timeout $lim $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in 64 256 8448 1048576; do
  ok 150 && run arith-$t 60 arith --threads $t --iters 2048
done
for a in 13 14 15 16 17; do
  ok 300 && WGPU_MSM_ACCUMULATE_THREADS_LOG2=$a run acc$a 40 bench --ark-max 0 --sizes 16 --repeat 11 --profile
done
for s in 8 9 10 12; do
  ok 400 && WGPU_MSM_REDUCE_SEGS_LOG2=$s run segs$s 40 bench --ark-max 0 --sizes 16 --repeat 11 --profile
done
ok 430 && run base 40 bench --ark-max 0 --sizes 16 --repeat 11 --profile
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/arith*.txt; do k=$(basename $f .txt); tail -4 $f | awk -v k=$k '{print k, $0}' >> $S; done
for f in $R/acc*.txt $R/segs*.txt $R/base.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +device|^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $0}' | cut -c1-160 >> $S; done
ls -la $O >> $S
