#!/usr/bin/env bash
# Session 30 call 7: BN254 G2 2^24 all resident, per-pass accumulate times by heads mode:
# at 19 bits the MSM's first pass (heads from zero, totals cleared) took 68.4 ms against
# 47.5 for the seeded passes of the same size (call 6). Later passes forced to pieces
# (WGPU_MSM_SEED_PER_BUCKET=0) or seeded (=100000), at 19 and 16 bits.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
run() { # name env args...
  local name=$1; local e=$2; shift 2
  env $e timeout 150 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
A="--curve bn254 --group g2 --sizes 24 --repeat 3 --profile --timeline 24"
run c19-seed32 X=1 $A --window 19
run c19-seed0 WGPU_MSM_SEED_PER_BUCKET=0 $A --window 19
run c16-seedbig WGPU_MSM_SEED_PER_BUCKET=100000 $A
run c16-seed32 X=1 $A
run bls2-c19 X=1 --curve bls12-381 --group g2 --sizes 24 --repeat 3 --profile --timeline 24 --window 19
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do echo "== $f" >> $S; grep -E "NVIDIA H200 .* device " $f | cut -c1-100 >> $S; sed -n '/timeline of #0 NVIDIA H200, device/,/^$/p' $f | grep -E "accumulate|collect|fold" | cut -c1-80 >> $S; done
