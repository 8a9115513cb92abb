#!/usr/bin/env bash
# Session 48 call 1 (M = 8c04ceb, main): per-pass timelines, to split each stage's time
# into what a pass costs whatever its size and what its entries cost. BN254 G1 2^24
# (one-shot 6 passes, resident 4, all resident 2), 2^26 under 1 GiB (49 passes), 2^20;
# BLS12-381 G1 2^24.
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
run() { # name bin limit args... (env passes through)
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
ok 200 && run t24 M 60 $B --sizes 20,24 --repeat 5 --profile --timeline 20,24
ok 300 && run t26 M 90 $B --sizes 26 --repeat 3 --budget 1GiB --profile --timeline 26
ok 400 && run tbls M 90 $B --curve bls12-381 --group g1 --sizes 24 --repeat 3 --profile --timeline 24
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "fold", $13, "coll", $14, "red", $15, "dev", $16, "span", $17, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:|panicked" $f | head -3 >> $S; done
