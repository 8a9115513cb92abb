#!/usr/bin/env bash
# Session 38 call 2 (one H200; main at 8ed0600): 2^26 one-shot by memory budget (pass
# size), against 2^24 one-shot unbudgeted and under 1 GiB; profiles and a timeline of
# the 1 GiB run (issue 30's 2^26 goal: no slower per point than 2^24 one-shot).
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
for r in 1 2; do
  ok 200 && run b24-none-$r 60 bench --ark-max 0 --sizes 24 --repeat 7
  for b in 1GiB 2GiB 4GiB; do
    ok 300 && run b24-$b-$r 60 bench --ark-max 0 --sizes 24 --repeat 7 --budget $b
    ok 360 && run b26-$b-$r 90 bench --ark-max 0 --sizes 26 --repeat 5 --budget $b
  done
  ok 400 && run b26-none-$r 90 bench --ark-max 0 --sizes 26 --repeat 5
done
ok 480 && run prof26-1GiB 90 bench --ark-max 0 --sizes 26 --repeat 3 --budget 1GiB --profile --timeline 26
ok 520 && run prof24-none 60 bench --ark-max 0 --sizes 24 --repeat 3 --profile
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ NVIDIA.* oneshot" $f | awk -v k=$k '{print k, $0}' | cut -c1-130 >> $S; done
ls -la $O >> $S
