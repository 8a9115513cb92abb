#!/usr/bin/env bash
# Session 38 call 3 (one H200): passes cut to the points a memory budget holds (the
# shape of the next power of two with buffers for fewer points) against main
# (wgpu-msm-main = 8ed0600). Tests bounded and gpu under the new build; then BN254 G1
# one-shot under 1 GiB at 2^24 and 2^26 and without a budget at 2^24, main and new
# alternating, two rounds.
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
run() { # name binary limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in bounded gpu; do
  WGPU_MSM_CACHE_DIR=/tmp/cache-wgpu-msm timeout 200 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
ok 200 && run list wgpu-msm 30 list
grep -E "H200" $R/list.txt >> $S
for r in 1 2; do
  for b in wgpu-msm-main wgpu-msm; do
    ok 430 && run b1g-$b-$r $b 90 bench --ark-max 0 --sizes 24,26 --repeat 7 --budget 1GiB
    ok 460 && run none-$b-$r $b 40 bench --ark-max 0 --sizes 24 --repeat 7
  done
done
ok 500 && run prof-new wgpu-msm 60 bench --ark-max 0 --sizes 26 --repeat 3 --budget 1GiB --profile
ok 530 && run b15-new wgpu-msm 40 bench --ark-max 0 --sizes 26 --repeat 5 --budget 1536MiB
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ NVIDIA.* oneshot" $f | awk -v k=$k '{print k, $0}' | cut -c1-130 >> $S; done
grep -E "NVIDIA H200 +oneshot" $R/prof-new.txt | cut -c1-230 >> $S
ls -la $O >> $S
