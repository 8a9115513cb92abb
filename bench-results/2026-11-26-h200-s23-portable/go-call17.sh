#!/usr/bin/env bash
# Portable32 small limbs: rounds per loop iteration of the Compact multiply (3 = main).
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
K=$O/k.txt
for r in 1 2; do for k in k3 k2 k4 k5 k7; do
  timeout 100 bin/$k bench --sizes 20,22 --arith portable32 --repeat 7 --ark-max 0 2>&1 | grep "^2026.*NVIDIA H200 " | sed "s|^|r$r $k |" >> $K
done; done
for k in k3 k2 k4 k5 k7; do timeout 60 bin/$k arith --threads 262144 --iters 16384 2>&1 | tail -1 | sed "s|^|$k |" >> $K; done
cat $K
