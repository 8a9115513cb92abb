#!/usr/bin/env bash
# Session 42 call 2: the reduction by bit trees against main (2728ea2). Tests with the
# new build; BN254 G1 2^14-2^24 before/after, two rounds alternating (median of 7,
# profile in round 1); Portable32 after (2^16/2^20/2^22); the other groups before/after
# at 2^14/2^16/2^20/2^24 (median of 5); window sweeps with the new build (BN254 G1 2^16,
# the other groups 2^14-2^15).
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
    ok 330 && run g1-$b-$r $b 60 bench --ark-max 0 --sizes 14,16,18,20,22,24 --repeat 7 $([ $r = 1 ] && echo "--profile")
  done
done
ok 360 && run p32-after after 40 bench --ark-max 0 --sizes 16,20,22 --repeat 7 --arith portable32 --profile
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  for b in before after; do
    ok 440 && run $1$2-$b $b 45 bench --ark-max 0 --sizes 14,16,20,24 --repeat 5 --curve $1 --group $2 $([ $b = after ] && echo "--profile")
  done
done
for w in 11 13; do
  ok 480 && run g1w$w after 15 bench --ark-max 0 --sizes 16 --repeat 7 --window $w
done
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  for w in 8 10 11; do
    ok 540 && run small-$1$2-w$w after 15 bench --ark-max 0 --sizes 14,15 --repeat 7 --curve $1 --group $2 --window $w
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt $R/p32-*.txt $R/g1w*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g* $R/small-*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
for f in $R/g1-*-1.txt $R/p32-after.txt $R/*g*-after.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* device +(14|16|20) " $f | awk -v k=$k '{print k, $0}' | cut -c1-230 >> $S; done
