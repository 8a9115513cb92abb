#!/usr/bin/env bash
# Session 46 call 1 (F = 74e4e87): 2^26 streams at 19-bit windows (7) against the rule's
# 16-bit (8) under 1 GiB, and without a budget in 2^21-point passes (the rate that
# larger 19-bit passes would reach); the 2^24 one-shot for the per-point ratio.
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
ok 100 && run g24 F 80 $B --sizes 24 --repeat 7
ok 200 && run b26-w16 F 90 $B --sizes 26 --repeat 3 --budget 1GiB --profile
ok 300 && run b26-w19 F 90 $B --sizes 26 --repeat 3 --budget 1GiB --profile --window 19
ok 400 && run c21-w19 F 90 $B --sizes 26 --repeat 3 --chunk 21 --profile --window 19
ok 480 && run c21-w16 F 90 $B --sizes 26 --repeat 3 --chunk 21 --profile --window 16
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device|oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16, "span", $17, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
