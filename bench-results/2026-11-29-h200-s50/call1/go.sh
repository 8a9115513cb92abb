#!/usr/bin/env bash
# Session 50 call 1: main (8a270a4) as it stands. BN254 G1 2^16-2^24 with a timeline of
# the 2^16 rows; the 2^26 cell (under 1 GiB) twice, each beside a 2^24 one-shot round.
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
ok 400 && run a1 M 90 $B --sizes 16,20,22,24 --repeat 7 --profile --timeline 16
ok 430 && run b26-1 M 70 $B --sizes 26 --repeat 3 --budget 1GiB --profile
ok 460 && run a2 M 50 $B --sizes 24 --repeat 7
ok 490 && run b26-2 M 70 $B --sizes 26 --repeat 3 --budget 1GiB --profile
ok 520 && run a3 M 50 $B --sizes 16 --repeat 15 --samples
for f in $R/a*.txt $R/b26*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/a*.txt $R/b26*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +[12][0-9] " $f | awk -v k=$k '{print k, $4, $5, "up", $6, "dec", $9, "scat", $11, "acc", $12, "fold", $13, "coll", $14, "red", $15, "dev", $16, "span", $17, "lead", $18, "drain", $19, "comb", $20, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:|panicked" $f | head -3 >> $S; done
(cd $O && tar czf raw.tgz raw && rm -rf raw)
