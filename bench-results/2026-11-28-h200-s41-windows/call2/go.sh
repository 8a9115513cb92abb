#!/usr/bin/env bash
# Session 41 call 2: window counts under balanced windows (one build, the plan that
# spreads the digits' bits over its windows). Tests gpu and copied_uploads; BN254 G1
# 2^16-2^20 swept over widths (W = 12, 11, 10, 9, 8, 7 windows of a GLV half); 2^22 and
# 2^24 default (16 bits) against 19, two rounds; BN254 G2 and BLS12-381 G1 at 2^22 and
# BLS12-381 G2 at 2^23 default against 19.
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
export WGPU_MSM_CACHE_DIR=/tmp/cache
for t in gpu copied_uploads; do
  ok 200 && { timeout 150 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked" $R/test-$t.txt | head -5 >> $S
done
run() { # name limit args...
  local name=$1; local lim=$2; shift 2
  timeout $lim $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for w in 11 12 13 15 16 19; do
  ok 300 && run sweep-w$w 40 bench --ark-max 0 --sizes 16,17,18,19,20 --repeat 7 --window $w
done
for r in 1 2; do
  for w in 16 19; do
    ok 420 && run g1-w$w-$r 60 bench --ark-max 0 --sizes 22,24 --repeat 7 --window $w
  done
done
for g in "bn254 g2 22" "bls12-381 g1 22" "bls12-381 g2 23"; do
  set -- $g
  for w in def 19; do
    ok 530 && run $1$2-$3-w$w 50 bench --ark-max 0 --sizes $3 --repeat 5 --curve $1 --group $2 $([ $w = 19 ] && echo "--window 19")
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/sweep-*.txt $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
ls -la $O >> $S
