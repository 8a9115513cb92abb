#!/usr/bin/env bash
# Session 46 call 4 (F = 74e4e87, P = 3513cab): is 2^16 faster with one bucket partial
# a chunk (call 2: 1.13-1.19 against 1.36)? Alternating rounds with profiles; another
# 2^26 under 1 GiB beside the 2^24 one-shot.
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
for r in 1 2; do
  ok 200 && run s16-F$r F 50 $B --sizes 16,18,20 --repeat 15
  ok 240 && run s16-P$r P 50 $B --sizes 16,18,20 --repeat 15
done
ok 300 && run p16-F F 40 $B --sizes 16 --repeat 9 --profile
ok 340 && run p16-P P 40 $B --sizes 16 --repeat 9 --profile
ok 420 && run b26-P P 70 $B --sizes 26 --repeat 7 --budget 1GiB
ok 470 && run g24-P P 50 $B --sizes 24 --repeat 7
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/p16*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device|resident|oneshot\*?) +1[0-9] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16, "span", $17, "lead", $18, "drain", $19, "total", $21}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
