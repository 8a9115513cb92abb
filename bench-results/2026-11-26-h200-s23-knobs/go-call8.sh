#!/usr/bin/env bash
# One-shot first pass and growth for every group (2^20, 2^22, 2^24).
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
K=$O/knobs.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/gpu.txt
for r in 1 2; do
for c in "3 250" "4 250" "5 250" "4 400"; do
  set -- $c
  if [ $r = 2 ] && [ "$1 $2" != "3 250" ] && [ "$1 $2" != "4 250" ]; then continue; fi
  for g in "bn254 g1 20,22,24" "bls12-381 g1 20,22,24" "bn254 g2 20,24" "bls12-381 g2 20,24"; do
    set -- $c $g
    WGPU_MSM_FIRST_PASS_SHIFT=$1 WGPU_MSM_PASS_GROWTH=$2 timeout 120 bin/cur bench --curve $3 --group $4 --sizes $5 --repeat 7 --ark-max 0 2>&1 | grep "^11-2\|^2026.*NVIDIA.*oneshot" | grep oneshot | sed "s|^|r$r s$1 g$2 |" >> $K
  done
done
done
cat $O/gpu.txt $K
