#!/usr/bin/env bash
# Where a multi-pass all-resident BN254 G2 2^20 MSM spends its time: one pass, two
# passes of 2^19, four passes of 2^18 (16-bit windows), growing passes (EXP_GROW).
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
K=$O/k.txt
p() { local tag=$1; shift; timeout 60 bin/grow bench --curve bn254 --group g2 --sizes 20 --window 16 --repeat 5 --ark-max 0 --profile "$@" 2>&1 | sed -n '/per-stage/,/^$/p' | grep "#0" | cut -c1-230 | sed "s|^|$tag |" >> $K; }
p one
p chunk19 --chunk 19
p chunk18 --chunk 18
WGPU_MSM_EXP_GROW=1 p grow
WGPU_MSM_EXP_GROW=1 WGPU_MSM_FIRST_PASS_SHIFT=2 p grow-s2
cat $K
