#!/usr/bin/env bash
# Session 52 call 4: A = main (bd3ca09) with fewer accumulation threads a pass
# (WGPU_MSM_ACCUMULATE_THREADS_LOG2; default 18, whole waves of 1056 workgroups for the G1
# groups, 792 for BN254 G2, 528 for BLS12-381 G2): under one wave an SM runs fewer
# threads, whose register-machine registers might then stay in L1. A diagnostic, no build.
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
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
for t in def 15 16; do
  if [ $t = def ]; then unset WGPU_MSM_ACCUMULATE_THREADS_LOG2; else export WGPU_MSM_ACCUMULATE_THREADS_LOG2=$t; fi
  ok 200 && run bls-t$t A 60 $B --curve bls12-381 --sizes 22,24 --repeat 7 --profile
  ok 230 && run g2-t$t A 60 $B --curve bn254 --group g2 --sizes 22,24 --repeat 7 --profile
done
for t in def 14 15; do
  if [ $t = def ]; then unset WGPU_MSM_ACCUMULATE_THREADS_LOG2; else export WGPU_MSM_ACCUMULATE_THREADS_LOG2=$t; fi
  ok 300 && run b2-t$t A 50 $B --curve bls12-381 --group g2 --sizes 22 --repeat 7 --profile
done
unset WGPU_MSM_ACCUMULATE_THREADS_LOG2
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^1[12]-[0-9]+ +[a-z0-9-]+ +#0 NVIDIA|^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $0}' | sed -E 's/ +/ /g' >> $S; done
for f in $R/[bg]*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +[12][0-9] " $f | awk -v k=$k '{print k, $4, $5, "acc", $12, "dev", $16, "total", $21}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:|panicked|FAILED" $f | head -3 >> $S; done
(cd $O && tar czf raw.tgz raw && rm -rf raw)
