#!/usr/bin/env bash
# Session 41 call 3: window counts under balanced windows, continued (same build as
# call 2). The other groups at 2^16-2^19 over widths 11/12/13/15/16 (W = 12, 11, 10, 9,
# 8 windows of a GLV half); BN254 G1 2^14-2^15 over widths; 2^16-2^17 a second round;
# BN254 G1 2^23 at 16 against 19 bits.
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
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  for w in 11 12 13 15 16; do
    ok 400 && run $1$2-w$w 40 bench --ark-max 0 --sizes 16,17,18,19 --repeat 5 --curve $1 --group $2 --window $w
  done
done
for w in 7 8 10 11 12 13 16; do
  ok 470 && run small-w$w 25 bench --ark-max 0 --sizes 14,15 --repeat 7 --window $w
done
for w in 11 12 13 15 16; do
  ok 520 && run mid-w$w 25 bench --ark-max 0 --sizes 16,17 --repeat 7 --window $w
done
for w in 16 19; do
  ok 560 && run g1-23-w$w 40 bench --ark-max 0 --sizes 23 --repeat 7 --window $w
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/small-*.txt $R/mid-*.txt $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
ls -la $O >> $S
