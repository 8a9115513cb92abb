#!/usr/bin/env bash
# Session 33 call 2 (diagnostic build over 5f5a2ec): Karatsuba wide products.
# K1 = WGPU_MSM_DIAG_KARA=1: fq_mul_wide by one level of Karatsuba (66 limb products
# instead of 81 for BN254, 147 instead of 196 for BLS12-381): Fq2's three products and
# fq_mul_sub's two. K2 = WGPU_MSM_DIAG_KARA=2: K1, and fq_mul / fq_sqr as the wide
# product (Karatsuba / symmetric square) and one separate reduction instead of the
# interleaved multiply. Tests with K2, arith, then the groups' rows alternating.
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
  env WGPU_MSM_CACHE_DIR=/tmp/cache-${e//[^A-Z0-9]/} $e timeout 150 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in bls12_381 g2 embed; do
  env WGPU_MSM_DIAG_KARA=2 WGPU_MSM_CACHE_DIR=/tmp/cache-k2t timeout 200 $G/bin/$t --include-ignored --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
for k in 0 2 0 2; do
  env WGPU_MSM_DIAG_KARA=$k WGPU_MSM_CACHE_DIR=/tmp/cache-arith$k timeout 60 $G/bin/wgpu-msm arith > $R/arith-k$k.txt 2>&1
  echo "arith k$k rc=$? t=$(el)" >> $S; grep -iE "H200" $R/arith-k$k.txt | head -4 >> $S
done
for r in 1 2; do
  for k in 0 1 2; do
    run g2-k$k-$r WGPU_MSM_DIAG_KARA=$k --curve bn254 --group g2 --sizes 20,24 --repeat 5 --profile
  done
  for k in 0 1 2; do
    [ $r = 2 ] && [ $k = 1 ] && continue
    run g1-k$k-$r WGPU_MSM_DIAG_KARA=$k --sizes 20,24 --repeat 5 --profile
    run bls1-k$k-$r WGPU_MSM_DIAG_KARA=$k --curve bls12-381 --group g1 --sizes 20,24 --repeat 5 --profile
  done
  [ $r = 1 ] && for k in 0 1 2; do
    run bls2-k$k-$r WGPU_MSM_DIAG_KARA=$k --curve bls12-381 --group g2 --sizes 20,24 --repeat 5 --profile
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' >> $S; done
