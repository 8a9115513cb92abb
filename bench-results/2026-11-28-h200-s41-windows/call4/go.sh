#!/usr/bin/env bash
# Session 41 call 4: the merged build (balanced windows, per-group GLV widths, 19-bit
# windows from 2^23 for BN254 G1 and from 2^22 for BN254 G2 and BLS12-381 G1, 2^23 for
# BLS12-381 G2) against main (cd99db1): BN254 G1 2^14-2^24, two rounds alternating
# (median of 7); the other groups at 2^16-2^18, 2^22, 2^23, one round (median of 5).
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
  for b in before after; do
    ok 200 && run g1-$b-$r $b 70 bench --ark-max 0 --sizes 14,15,16,17,18,20,22,23,24 --repeat 7
  done
done
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  for b in before after; do
    ok 330 && run $1$2-$b $b 50 bench --ark-max 0 --sizes 16,17,18,22,23 --repeat 5 --curve $1 --group $2
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
ls -la $O >> $S
