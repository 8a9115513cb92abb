#!/usr/bin/env bash
# Session 40 call 3: the fold's steps below 2^8 chunks in one dispatch (`fold_local`,
# wgpu-msm) against main at d4df3ad (wgpu-msm-before). Tests gpu first; BN254 G1
# 2^14-2^22 two rounds alternating, median of 11; profiles at 2^14/2^16/2^18; BN254 G2
# and BLS12-381 G1 at 2^16/2^18 one round each.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
WGPU_MSM_CACHE_DIR=/tmp/cache-t timeout 200 $G/bin/gpu --test-threads 1 > $R/test-gpu.txt 2>&1; echo "test gpu rc=$? t=$(el)" >> $S
grep "test result" $R/test-gpu.txt >> $S
run() { # name limit binary args...
  local name=$1; local lim=$2; local b=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2; do
  for b in wgpu-msm-before wgpu-msm; do
    ok 400 && run $b-g1-$r 90 $b bench --ark-max 0 --sizes 14,16,17,18,20,22 --repeat 11
  done
done
for b in wgpu-msm-before wgpu-msm; do
  ok 450 && run $b-prof 60 $b bench --ark-max 0 --sizes 14,16,18 --repeat 3 --profile
  for g in "bn254 g2" "bls12-381 g1"; do
    set -- $g
    ok 500 && run $b-$1$2 60 $b bench --ark-max 0 --sizes 16,18 --repeat 7 --curve $1 --group $2
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*-g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $0}' | cut -c1-130 >> $S; done
for f in $R/*-prof.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +device" $f | awk -v k=$k '{print k, $0}' | cut -c1-190 >> $S; done
for f in $R/*bn254g2.txt $R/*bls12-381g1.txt; do k=$(basename $f .txt); grep -E "#0 NVIDIA" $f | awk -v k=$k '{print k, $0}' | cut -c1-130 >> $S; done
ls -la $O >> $S
