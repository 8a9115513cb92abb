#!/usr/bin/env bash
# Session 46 call 3 (N = call 2's bucket partials a chunk, buffers cut in 16ths;
# P = 3513cab, cut in 64ths): 2^26 under 1 GiB P against N, P's timeline; stream
# knobs at 2^26 (first pass shift, growth); the 2^24 one-shot beside them.
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
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
ok 100 && run b26-P P 80 $B --sizes 26 --repeat 7 --budget 1GiB --profile --timeline 26
ok 180 && run b26-N N 80 $B --sizes 26 --repeat 7 --budget 1GiB
ok 240 && run g24-P P 60 $B --sizes 24 --repeat 7
for v in FIRST_PASS_SHIFT=2 FIRST_PASS_SHIFT=5 PASS_GROWTH=400 PASS_GROWTH=160; do
  k=WGPU_MSM_${v%%=*}; export $k=${v#*=}
  ok 430 && run b26-P-$v P 60 $B --sizes 26 --repeat 5 --budget 1GiB
  unset $k
done
ok 500 && run b26-P2 P 60 $B --sizes 26 --repeat 7 --budget 1GiB
ok 540 && run g24-P2 P 50 $B --sizes 24 --repeat 7
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/b26-P.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device|oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16, "span", $17, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
