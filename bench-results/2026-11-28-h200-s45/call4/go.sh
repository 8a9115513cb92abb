#!/usr/bin/env bash
# Session 45 call 4: the pass knobs at 2^24 with 22-bit windows (H = bcce108's build):
# one-shot first pass, growth and overlap; resident first pass and growth; the
# accumulation's threads. BN254 G1 2^24, median of 7, one round each, the default
# first and last; the default's timeline at 2^24.
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
run() { # name bin limit args... (env passes through)
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
ok 300 && run g1-def-1 H 60 bench --ark-max 0 --sizes 24 --repeat 7 --warmup-ms 300 --profile --timeline 24 --strategy even
for v in FIRST_PASS_SHIFT=4 FIRST_PASS_SHIFT=5 PASS_GROWTH=400 OVERLAP_DIVISOR=4 RESIDENT_FIRST_PASS_SHIFT=5 RESIDENT_FIRST_PASS_SHIFT=6 RESIDENT_PASS_GROWTH=800 ACCUMULATE_THREADS_LOG2=17 ACCUMULATE_THREADS_LOG2=19; do
  k=WGPU_MSM_${v%%=*}; export $k=${v#*=}
  ok 330 && run g1-$v H 40 bench --ark-max 0 --sizes 24 --repeat 7 --warmup-ms 300 --strategy even
  unset $k
done
ok 360 && run g1-def-2 H 40 bench --ark-max 0 --sizes 24 --repeat 7 --warmup-ms 300 --strategy even
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/g1-*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
