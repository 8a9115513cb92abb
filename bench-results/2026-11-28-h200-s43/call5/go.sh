#!/usr/bin/env bash
# Session 43 call 5: the final build (host core count once, readback polled at once,
# one Horner's rule, the one-shot's first chunk recorded before its first submission
# with the scalars submitted as soon as written): its tests; BN254 G1 2^14-2^24 against
# main (fa88ffe), two rounds alternating (median of 9); 2^15/2^17/2^23 one round; the
# other groups at 2^14/2^16 (median of 7).
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
  ok 150 && { WGPU_MSM_CACHE_DIR=/tmp/cache-after timeout 120 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked" $R/test-$t.txt | head -5 >> $S
done
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2; do
  for b in before after; do
    ok 300 && run g1-$b-$r $b 60 bench --ark-max 0 --sizes 14,16,18,20,22,24 --repeat 9
  done
done
ok 330 && run g1-odd-after after 60 bench --ark-max 0 --sizes 15,17,23 --repeat 9
for g in "bn254 g2" "bls12-381 g1"; do
  set -- $g
  ok 380 && run $1$2-after after 40 bench --ark-max 0 --sizes 14,16 --repeat 7 --curve $1 --group $2
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
