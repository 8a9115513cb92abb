#!/usr/bin/env bash
# Wide64 squaring written out (sq) against 32a49ca (base); parity tests; G2 2^20 knobs.
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
R=$O/res.txt
b() { local tag=$1 t=$2; shift 2; echo "== $tag: $*" > $O/$tag.txt; local s=$(date +%s); timeout $t "$@" >> $O/$tag.txt 2>&1; echo "$tag rc=$? $(( $(date +%s)-s ))s" >> $O/summary.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/gpu.txt
b t-gpu 200 bin/t-gpu
b t-bls 200 bin/t-bls --include-ignored
b t-g2 300 bin/t-g2 --include-ignored
b t-fq2 100 bin/t-fq2
b t-groth 200 bin/t-groth
for v in base sq; do b arith-$v 60 bin/$v arith --threads 262144 --iters 16384; done
for r in 1 2; do for v in base sq; do
  b g1-$v-$r 150 bin/$v bench --sizes 20,22,24 --repeat 7 --ark-max 0
done; done
for v in base sq; do
  b bls1-$v 150 bin/$v bench --curve bls12-381 --group g1 --sizes 20,24 --repeat 7 --ark-max 0
  b bn2-$v 150 bin/$v bench --curve bn254 --group g2 --sizes 20 --repeat 7 --ark-max 0
done
for e in ACCUMULATE_THREADS_LOG2=16 ACCUMULATE_THREADS_LOG2=18 ACCUMULATE_THREADS_LOG2=19 REDUCE_SEGS_LOG2=9 REDUCE_SEGS_LOG2=10 REDUCE_SEGS_LOG2=12; do
  env WGPU_MSM_$e bin/sq bench --curve bn254 --group g2 --sizes 20 --repeat 7 --ark-max 0 2>&1 | grep "^11-2" | sed "s|^|$e |" >> $O/knobs.txt
done
{ cat $O/gpu.txt $O/summary.txt
for t in t-gpu t-bls t-g2 t-fq2 t-groth; do grep -h "test result\|panicked" $O/$t.txt | head -3 | sed "s|^|$t |"; done
for v in base sq; do grep -h "H200" $O/arith-$v.txt | sed "s|^|$v |"; done
for f in $O/g1-*.txt; do grep -h "^2026.*NVIDIA H200" $f | sed "s|^|$(basename $f .txt) |"; done
for f in $O/bls1-*.txt $O/bn2-*.txt; do grep -h "^11-2" $f | sed "s|^|$(basename $f .txt) |"; done
cat $O/knobs.txt; } > $R
mkdir -p $O/raw && mv $O/t-*.txt $O/arith-*.txt $O/g1-*.txt $O/bls1-*.txt $O/bn2-*.txt $O/raw/ && (cd $O && tar czf raw.tgz raw && rm -r raw)
cat $R
