#!/usr/bin/env bash
# Session 33 call 4: the H200's rate of 32x32 -> 64-bit multiply-adds (IMAD.WIDE.U32
# with a 64-bit addend, the Wide64 multiply's one instruction a limb product) in eight
# independent chains a thread (WGPU_MSM_DIAG_WIDECHAINS=1: the u32 column then counts
# half of them; =2: eight chains of 32-bit multiply-adds, the same count), beside
# main's arith, at three shapes. (Its first run, with the chains in an array, measured
# local memory; this one keeps them in eight variables.)
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
for r in 1; do
for w in 0 1 2; do
  for shape in "1048576 256" "262144 4096" "1048576 2048"; do
    set -- $shape
    echo "wide=$w threads=$1 iters=$2" >> $S
    env WGPU_MSM_DIAG_WIDECHAINS=$w WGPU_MSM_CACHE_DIR=/tmp/c$w timeout 60 $G/bin/wgpu-msm arith --threads $1 --iters $2 2>&1 | grep -E "H200" >> $S
  done
done
done
