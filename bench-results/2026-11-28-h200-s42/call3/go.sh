#!/usr/bin/env bash
# Session 42 call 3: the reduction by bit trees with a walk over segments in wide
# windows (2^13 buckets and more), every group 10-bit windows at 2^14-2^15 points, G2's
# window sums joined on the host's pool; against main (2728ea2). Tests with the new
# build; BN254 G1 2^14-2^24 before/after, two rounds alternating (median of 7, profiles
# both rounds); Portable32 before/after 2^16/2^20/2^22; the other groups before/after at
# 2^14/2^16/2^20/2^24 (median of 5, profiles).
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
for t in gpu bls12_381 g2 embed copied_uploads workgroup_memory portable; do
  ok 200 && { WGPU_MSM_CACHE_DIR=/tmp/cache-after timeout 120 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked" $R/test-$t.txt | head -5 >> $S
done
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2; do
  for b in before after; do
    ok 340 && run g1-$b-$r $b 60 bench --ark-max 0 --sizes 14,16,18,20,22,24 --repeat 7 --profile
  done
done
for b in before after; do
  ok 380 && run p32-$b $b 40 bench --ark-max 0 --sizes 16,20,22 --repeat 7 --arith portable32 --profile
done
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  for b in before after; do
    ok 540 && run $1$2-$b $b 60 bench --ark-max 0 --sizes 14,16,20,24 --repeat 5 --curve $1 --group $2 --profile
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt $R/p32-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
for f in $R/g1-*-1.txt $R/p32-*.txt $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* device +(14|16|20|24) " $f | awk -v k=$k '{print k, $0}' | cut -c1-230 >> $S; done
