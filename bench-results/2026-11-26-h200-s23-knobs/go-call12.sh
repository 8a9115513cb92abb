#!/usr/bin/env bash
# All-resident MSMs in growing passes (as one-shot ones), WGPU_MSM_EXP_GROW, against one pass.
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
K=$O/k.txt
r() { local tag=$1; shift; timeout 120 bin/grow bench --repeat 7 --ark-max 0 "$@" 2>&1 | grep "^11-2\|^2026.*NVIDIA H200 " | grep device | sed "s|^|$tag |" >> $K; }
for x in 1 2; do
  r "one-r$x bn2" --curve bn254 --group g2 --sizes 20,22,24
  WGPU_MSM_EXP_GROW=1 r "grow-r$x bn2" --curve bn254 --group g2 --sizes 20,22,24
  r "one-r$x bls1" --curve bls12-381 --group g1 --sizes 20,22
  WGPU_MSM_EXP_GROW=1 r "grow-r$x bls1" --curve bls12-381 --group g1 --sizes 20,22
  r "one-r$x bn1" --sizes 20,22
  WGPU_MSM_EXP_GROW=1 r "grow-r$x bn1" --sizes 20,22
done
WGPU_MSM_EXP_GROW=1 timeout 60 bin/grow bench --curve bn254 --group g2 --sizes 20 --repeat 5 --ark-max 0 --profile 2>&1 | sed -n '/per-stage/,/^$/p' | cut -c1-230 >> $K
r "one bls2" --curve bls12-381 --group g2 --sizes 20
WGPU_MSM_EXP_GROW=1 r "grow bls2" --curve bls12-381 --group g2 --sizes 20
cat $K
