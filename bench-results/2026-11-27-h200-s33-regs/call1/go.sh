#!/usr/bin/env bash
# Session 33 call 1 (diagnostic build over 5f5a2ec): the kernels' register peaks.
# A = WGPU_MSM_DIAG_FQ2MUL (Fq2 Karatsuba with v0 + v1 formed before the third product),
# S = WGPU_MSM_DIAG_SQR (the register machine squares over Fq2 with fq2_sqr: 2 Fq
# products instead of Karatsuba's 3 wide products and 2 reductions),
# B = WGPU_MSM_DIAG_MULSUB (a b - c d as a b + (2p - c) d in one set of columns).
# Tests with all three on, then A/B pairs alternating, each variant its own cache dir
# (so each keeps its own wave size).
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
ALL="WGPU_MSM_DIAG_FQ2MUL=1 WGPU_MSM_DIAG_SQR=1 WGPU_MSM_DIAG_MULSUB=1"
run() { # name env args...
  local name=$1; local e=$2; shift 2
  env WGPU_MSM_CACHE_DIR=/tmp/cache-${e//[^A-Z]/} $e timeout 150 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in bls12_381 g2 embed; do
  env $ALL WGPU_MSM_CACHE_DIR=/tmp/cache-all timeout 200 $G/bin/$t --include-ignored --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
for r in 1 2; do
  run g2-base-$r X=1 --curve bn254 --group g2 --sizes 20,24 --repeat 5 --profile
  run g2-A-$r WGPU_MSM_DIAG_FQ2MUL=1 --curve bn254 --group g2 --sizes 20,24 --repeat 5 --profile
  run g2-S-$r WGPU_MSM_DIAG_SQR=1 --curve bn254 --group g2 --sizes 20,24 --repeat 5 --profile
  run g2-AS-$r "WGPU_MSM_DIAG_FQ2MUL=1 WGPU_MSM_DIAG_SQR=1" --curve bn254 --group g2 --sizes 20,24 --repeat 5 --profile
  run g1-base-$r X=1 --sizes 20,24 --repeat 5 --profile
  run g1-B-$r WGPU_MSM_DIAG_MULSUB=1 --sizes 20,24 --repeat 5 --profile
  run bls1-base-$r X=1 --curve bls12-381 --group g1 --sizes 20,24 --repeat 5 --profile
  run bls1-B-$r WGPU_MSM_DIAG_MULSUB=1 --curve bls12-381 --group g1 --sizes 20,24 --repeat 5 --profile
  run bls2-base-$r X=1 --curve bls12-381 --group g2 --sizes 20,24 --repeat 5 --profile
  run bls2-AS-$r "WGPU_MSM_DIAG_FQ2MUL=1 WGPU_MSM_DIAG_SQR=1" --curve bls12-381 --group g2 --sizes 20,24 --repeat 5 --profile
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-200 >> $S; grep -iE "wave|most running" $f | head -3 | awk -v k=$(basename $f .txt) '{print k, $0}' >> $S; done
