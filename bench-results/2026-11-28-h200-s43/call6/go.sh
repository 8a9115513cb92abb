#!/usr/bin/env bash
# Session 43 call 6: upload threads for small uploads, one per 128 KiB (t128) instead of
# one per 512 KiB (main at 38a6396), so that 2^14-2^16 uploads spread over all 12
# upload threads; BN254 G1 2^14/2^16, three rounds alternating (median of 9), and the
# profile at 2^16 of each.
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
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2 3; do
  for b in main t128; do
    ok 110 && run small-$b-$r $b 30 bench --ark-max 0 --sizes 14,16,18 --repeat 9
  done
done
for b in main t128; do
  ok 140 && run prof-$b $b 30 bench --ark-max 0 --sizes 16 --repeat 5 --profile
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/small-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
grep -h -E "^#0 NVIDIA.* (oneshot|resident) +16 " $R/prof-*.txt | cut -c1-200 >> $S
