#!/usr/bin/env bash
# Smaller passes at the MSM's window width: does the accumulation gain from bases that
# (nearly) fit the L2 cache?
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
K=$O/k.txt
r() { local tag=$1; shift; timeout 90 bin/wgpu-msm bench --repeat 7 --ark-max 0 "$@" 2>&1 | grep "^11-2\|^2026.*NVIDIA H200 " | sed "s|^|$tag |" >> $K; }
for c in def 17 18 19; do
  a=""; [ $c != def ] && a="--chunk $c"
  r "bn2-$c" --curve bn254 --group g2 --sizes 20 --window 16 $a
  r "bls1-$c" --curve bls12-381 --group g1 --sizes 20 --window 16 $a
  r "bn1-$c" --sizes 20 --window 16 $a
done
for c in def 19 20; do
  a=""; [ $c != def ] && a="--chunk $c"
  r "bn2-22-$c" --curve bn254 --group g2 --sizes 22 --window 16 $a
  r "bn1-22-$c" --sizes 22 --window 16 $a
done
cat $K
