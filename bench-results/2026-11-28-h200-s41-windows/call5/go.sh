#!/usr/bin/env bash
# Session 41 call 5: what call 4's time guard left out: BLS12-381 G2 at 2^16-2^18, 2^22,
# 2^23 with the merged build against main (cd99db1), one round (median of 5); BN254 G1
# 2^14-2^15 a third round (median of 7).
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
for b in before after; do
  ok 100 && run bls12-381g2-$b $b 55 bench --ark-max 0 --sizes 16,17,18,22,23 --repeat 5 --curve bls12-381 --group g2
done
for b in before after; do
  ok 140 && run g1-$b-3 $b 15 bench --ark-max 0 --sizes 14,15 --repeat 7
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
