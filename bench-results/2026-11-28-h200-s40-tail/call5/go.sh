#!/usr/bin/env bash
# Session 40 call 5: the reduction trees' additions by four warps a lane
# (reduce_add_coop.wgsl; wgpu-msm) against main at d4df3ad (wgpu-msm-before). Tests gpu
# and bls12_381 first; BN254 G1 2^14-2^22 two rounds alternating, median of 11;
# profiles at 2^14/2^16/2^18/2^20; BLS12-381 G1 at 2^16/2^18/2^20 one round each.
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
for t in gpu bls12_381; do
  WGPU_MSM_CACHE_DIR=/tmp/cache-t timeout 200 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep -E "test result|FAILED|panicked" $R/test-$t.txt | head -5 >> $S
done
run() { # name limit binary args...
  local name=$1; local lim=$2; local b=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2; do
  for b in wgpu-msm-before wgpu-msm; do
    ok 420 && run $b-g1-$r 90 $b bench --ark-max 0 --sizes 14,16,17,18,20,22 --repeat 11
  done
done
for b in wgpu-msm-before wgpu-msm; do
  ok 470 && run $b-prof 60 $b bench --ark-max 0 --sizes 14,16,18,20 --repeat 3 --profile
  ok 510 && run $b-bls 60 $b bench --ark-max 0 --sizes 16,18,20 --repeat 7 --curve bls12-381 --group g1
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*-g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $0}' | cut -c1-130 >> $S; done
for f in $R/*-prof.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +device" $f | awk -v k=$k '{print k, $0}' | cut -c1-190 >> $S; done
for f in $R/*-bls.txt; do k=$(basename $f .txt); grep -E "#0 NVIDIA" $f | awk -v k=$k '{print k, $0}' | cut -c1-130 >> $S; done
ls -la $O >> $S
