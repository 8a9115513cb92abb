#!/usr/bin/env bash
# Session 36, four H200s, call 3 (same binary): does a host-fed MSM of 2^19-2^21 points
# run faster on fewer of the four devices? The cluster of 4, of 3 and of 2 alternating
# (each `bench` also times every device it is given), BN254 G1, median of 9.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=$O/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
B="bench --sizes 19,20,21 --repeat 9 --ark-max 0"
for r in 1 2; do
  for d in 0,1,2,3 0,1 0,1,2; do
    ok 420 && { timeout 100 $G/bin/wgpu-msm $B --devices $d > $R/d$d-$r.txt 2>&1; echo "devices $d round $r rc=$? t=$(el)" >> $S; }
  done
done
for f in $R/*.txt; do echo "== $(basename $f)" >> $S; grep -E "^2026-11-27 cluster" $f | cut -c1-100 >> $S; done
