#!/usr/bin/env bash
# Session 44 call 6: the merged scatter (f7253b5, "B") against main (2db410e) for the
# other groups at 2^20/2^24 (median of 5, one round, profiles), BN254 G1 at 2^14/2^16
# (median of 9), Portable32 BN254 G1 at 2^20/2^22 (median of 7), and BN254 G1 2^22 at
# 19-bit windows against the rule's 16 with B.
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
for g in "bls12-381 g1" "bn254 g2" "bls12-381 g2"; do
  set -- $g
  for b in main B; do
    ok 330 && run $1$2-$b $b 60 bench --ark-max 0 --sizes 20,24 --repeat 5 --warmup-ms 300 --curve $1 --group $2 --profile --strategy even
  done
done
for b in main B; do
  ok 400 && run small-$b $b 40 bench --ark-max 0 --sizes 14,16 --repeat 9 --strategy even
  ok 440 && run p32-$b $b 40 bench --ark-max 0 --sizes 20,22 --repeat 7 --arith portable32 --strategy even
done
ok 480 && run w19-B B 40 bench --ark-max 0 --sizes 22 --repeat 7 --window 19 --strategy even
ok 500 && run w16-B B 40 bench --ark-max 0 --sizes 22 --repeat 7 --strategy even
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/small-*.txt $R/p32-*.txt $R/w1*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device) +2[024] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16}' >> $S; done
