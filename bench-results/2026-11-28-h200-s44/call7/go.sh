#!/usr/bin/env bash
# Session 44 call 7: issue 30's 2^26 cell with the merged scatter (f7253b5, "B"): 2^26
# one-shot under a 1 GiB budget against 2^24 one-shot unbudgeted (median of 5 and 7),
# two rounds, and main (2db410e) one round.
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
for r in 1 2; do
  for b in B main; do
    [ $r = 2 ] && [ $b = main ] && continue
    ok 300 && run b24-$b-$r $b 60 bench --ark-max 0 --sizes 24 --repeat 7 --strategy even
    ok 330 && run b26-$b-$r $b 100 bench --ark-max 0 --sizes 26 --repeat 5 --budget 1GiB --strategy even
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
