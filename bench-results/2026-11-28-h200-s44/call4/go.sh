#!/usr/bin/env bash
# Session 44 call 4: the scatter's reservations loaded before the tile's sort (A:
# scatter_bins loads its coarse bin's reservation base with the tile; scatter_mid loads
# its tile before lane 0's window total and first fine bin, and the fine bins'
# reservation bases of its first two coarse bins before the sort), against main
# (2db410e, call 3's binary with no switch set). Tests gpu, bls12_381, g2 with A;
# BN254 G1 2^20/2^22/2^24 two rounds alternating (median of 7), profiles; BLS12-381 G1
# and BN254 G2 at 2^24 one round.
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
for t in gpu bls12_381 g2; do
  ok 200 && { WGPU_MSM_CACHE_DIR=/tmp/cache-A timeout 150 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked" $R/test-$t.txt | head -5 >> $S
done
for r in 1 2; do
  for b in main A; do
    ok 420 && run g1-$b-$r $b 60 bench --ark-max 0 --sizes 20,22,24 --repeat 7 --warmup-ms 300 --profile --strategy even
  done
done
for g in "bls12-381 g1" "bn254 g2"; do
  set -- $g
  for b in main A; do
    ok 520 && run $1$2-$b $b 60 bench --ark-max 0 --sizes 24 --repeat 5 --warmup-ms 300 --curve $1 --group $2 --profile --strategy even
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
for f in $R/g1-*.txt $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device) +2[024] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16}' >> $S; done
