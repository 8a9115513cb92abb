#!/usr/bin/env bash
# Session 41 call 1: balanced windows (full_windows) against main (cd99db1).
# Tests gpu, bls12_381 and g2 with the new build on the H200; then BN254 G1 2^14-2^18
# before/after, three rounds alternating (median of 7, profile at 2^16); the other
# groups at 2^16 and 2^24 (19-bit windows) before/after; a window sweep at 2^16-2^18.
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
for t in gpu bls12_381 g2; do
  ok 200 && { WGPU_MSM_CACHE_DIR=/tmp/cache-after timeout 150 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked" $R/test-$t.txt | head -5 >> $S
done
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2 3; do
  for b in before after; do
    ok 420 && run g1-$b-$r $b 60 bench --ark-max 0 --sizes 14,16,17,18 --repeat 7 $([ $r = 1 ] && echo "--profile")
  done
done
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  for b in before after; do
    ok 480 && run $1$2-$b $b 45 bench --ark-max 0 --sizes 16,24 --repeat 5 --curve $1 --group $2
  done
done
for w in 10 12 13; do
  ok 540 && run win$w after 25 bench --ark-max 0 --sizes 16,17,18 --repeat 7 --window $w
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt $R/bn254g2-*.txt $R/bls12-381g*.txt $R/win*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $0}' | cut -c1-120 >> $S; done
for f in $R/g1-*-1.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.*device +1[46] " $f | awk -v k=$k '{print k, $0}' | cut -c1-220 >> $S; done
ls -la $O >> $S
