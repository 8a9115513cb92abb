#!/usr/bin/env bash
# Portable32 small limbs: one or two rounds per loop iteration of the Compact multiply.
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
K=$O/k.txt
for r in 1 2; do for k in k2 k1; do
  timeout 100 bin/$k bench --sizes 16,20,22 --arith portable32 --repeat 7 --ark-max 0 2>&1 | grep "^2026.*NVIDIA H200 " | sed "s|^|r$r $k |" >> $K
done; done
cat $K
