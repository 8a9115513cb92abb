#!/usr/bin/env bash
# BLS12-381 G1 one-shot 2^20 pass knobs; portable32 profiles (before/after the small-limb
# commit) and thread counts; BN254 G1 2^26 streamed under 1 GiB against 2^24 one-shot.
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
K=$O/knobs.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/gpu.txt
timeout 60 bin/cur bench --curve bls12-381 --group g1 --sizes 20 --repeat 9 --ark-max 0 --profile --timeline 20 > $O/bls-prof.txt 2>&1
for e in DEFAULT=1 FIRST_PASS_SHIFT=2 FIRST_PASS_SHIFT=4 FIRST_PASS_SHIFT=5 PASS_GROWTH=200 PASS_GROWTH=400 OVERLAP_DIVISOR=1 OVERLAP_DIVISOR=4 UPLOAD_THREADS=16; do
  env WGPU_MSM_$e timeout 60 bin/cur bench --curve bls12-381 --group g1 --sizes 20 --repeat 9 --ark-max 0 2>&1 | grep "^11-2" | sed "s|^|bls1 $e |" >> $K
done
for v in base cur; do
  timeout 60 bin/$v bench --sizes 22 --arith portable32 --repeat 5 --ark-max 0 --profile > $O/p32-prof-$v.txt 2>&1
done
for t in 17 19; do
  WGPU_MSM_ACCUMULATE_THREADS_LOG2=$t timeout 60 bin/cur bench --sizes 20,22 --arith portable32 --repeat 5 --ark-max 0 2>&1 | grep "^2026.*NVIDIA" | sed "s|^|p32 t$t |" >> $K
done
timeout 200 bin/cur bench --sizes 24,26 --budget 1GiB --repeat 5 --ark-max 0 > $O/s26.txt 2>&1
timeout 100 bin/cur bench --sizes 24 --repeat 5 --ark-max 0 > $O/s24.txt 2>&1
{ cat $O/gpu.txt; cat $K; sed -n '/per-stage/,/^$/p' $O/bls-prof.txt | cut -c1-230; for v in base cur; do sed -n '/per-stage/,/^$/p' $O/p32-prof-$v.txt | grep "#0" | cut -c1-230 | sed "s|^|$v |"; done; grep -h "^2026.*NVIDIA" $O/s26.txt $O/s24.txt; } > $O/res.txt
cat $O/res.txt
