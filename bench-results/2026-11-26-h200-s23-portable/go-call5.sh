#!/usr/bin/env bash
# Portable32 small limbs: fused a b - c d and a written-out square (A/B against main),
# the GPU tests, and the wider GLV window at 2^24.
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
b() { local tag=$1 t=$2; shift 2; echo "== $tag: $*" > $O/$tag.txt; local s=$(date +%s); timeout $t "$@" >> $O/$tag.txt 2>&1; echo "$tag rc=$? $(( $(date +%s)-s ))s" | tee -a $O/summary.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/gpu.txt
b tests 300 bin/gpu-test
for v in base ms both; do
  b arith-$v 60 bin/$v arith --threads 262144 --iters 16384
done
for r in 1 2; do
for v in base ms both; do
  b p32-$v-$r 120 bin/$v bench --sizes 16,20,22 --arith portable32 --repeat 7 --ark-max 0
done
done
b w64 120 bin/both bench --sizes 16,20,22 --arith wide64 --repeat 7 --ark-max 0
for g in "bls12-381 g1" "bn254 g2" "bls12-381 g2"; do
  set -- $g; b win-${1%%-*}-$2 150 bin/both bench --curve $1 --group $2 --sizes 24 --repeat 5 --ark-max 0
done
{ cat $O/gpu.txt $O/summary.txt; grep "test result\|FAILED\|panicked" $O/tests.txt | head;
for v in base ms both; do echo "arith $v"; grep -i "portable\|wide" $O/arith-$v.txt | tail -3; done
for f in $O/p32-*.txt $O/w64.txt; do grep -h "^2026.*NVIDIA H200" $f | sed "s|^|$(basename $f .txt) |"; done
grep -h "^11-2" $O/win-*.txt; } > $O/table.txt
cat $O/table.txt
