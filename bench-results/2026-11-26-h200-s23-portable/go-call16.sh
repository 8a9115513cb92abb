#!/usr/bin/env bash
# Portable32 (small limbs) with every limb loop unrolled (WGPU_MSM_UNROLL=full) against Compact.
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
K=$O/k.txt
for r in 1 2; do for u in compact full; do
  WGPU_MSM_UNROLL=$u timeout 200 bin/final bench --sizes 20,22 --arith portable32 --repeat 7 --ark-max 0 2>&1 | grep "^2026.*NVIDIA H200 " | sed "s|^|r$r $u |" >> $K
done; done
WGPU_MSM_UNROLL=full timeout 60 bin/final arith --threads 262144 --iters 16384 2>&1 | tail -2 >> $K
cat $K
