#!/usr/bin/env bash
# The per-group first pass (BN254 G1 capacity / 8, the others / 16), default settings.
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
K=$O/k.txt
r() { local tag=$1; shift; timeout 90 bin/final bench --repeat 9 --ark-max 0 "$@" 2>&1 | grep "^11-2\|^2026.*NVIDIA H200 " | sed "s|^|$tag |" >> $K; }
r p32 --sizes 20,22 --arith portable32
r w64 --sizes 20,22
r bls1 --curve bls12-381 --group g1 --sizes 20
r bn2 --curve bn254 --group g2 --sizes 20
r bls2 --curve bls12-381 --group g2 --sizes 20
cat $K
