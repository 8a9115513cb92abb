#!/usr/bin/env bash
# Session 33 call 5 (1da6962: Fq2's wide products by Karatsuba; wgpu-msm-main is
# 5f5a2ec): the tests that run MSMs (g2 with its ignored ones), then BN254 G2 and
# BLS12-381 G2 main / new alternating, then the new build's rows of every group.
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
run() { # name binary args...
  local name=$1; local b=$2; shift 2
  env WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout 150 $G/bin/$b bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in g2 bls12_381 embed copied_uploads gpu; do
  timeout 200 $G/bin/$t --include-ignored --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
for r in 1 2; do
  run g2-main-$r wgpu-msm-main --curve bn254 --group g2 --sizes 20,24 --repeat 7 --profile
  run g2-new-$r wgpu-msm --curve bn254 --group g2 --sizes 20,24 --repeat 7 --profile
  run bls2-main-$r wgpu-msm-main --curve bls12-381 --group g2 --sizes 20,24 --repeat 7 --profile
  run bls2-new-$r wgpu-msm --curve bls12-381 --group g2 --sizes 20,24 --repeat 7 --profile
done
run g1-new wgpu-msm --sizes 16,20,22,24 --repeat 7 --profile
run bls1-new wgpu-msm --curve bls12-381 --group g1 --sizes 20,24 --repeat 7 --profile
run g2-2223-new wgpu-msm --curve bn254 --group g2 --sizes 22,23 --repeat 7 --profile
(cd /tmp && tar czf $O/raw.tgz raw)
