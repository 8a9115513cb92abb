#!/usr/bin/env bash
# Portable32 one-shot 2^20/2^22 with the first pass at capacity / 8 and / 16, alternating.
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
K=$O/k.txt
for r in 1 2 3; do for s in 3 4; do
  WGPU_MSM_FIRST_PASS_SHIFT=$s timeout 60 bin/grow bench --sizes 20,22 --arith portable32 --repeat 9 --ark-max 0 2>&1 | grep "^2026.*NVIDIA H200 .*oneshot" | sed "s|^|r$r s$s |" >> $K
done; done
cat $K
