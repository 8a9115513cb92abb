#!/usr/bin/env bash
# Session 42 call 1: main (2728ea2) on the H200. Tests gpu, bls12_381, g2, copied_uploads
# (the merged width rule had only bench rows on the H200); Portable32 against Wide64
# (BN254 G1 2^16/2^20/2^22, two rounds alternating, median of 7, profile at 2^16);
# the other groups' widths at 2^14-2^15 (7-11 bits); Portable32's width at 2^16.
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
for t in gpu bls12_381 g2 copied_uploads; do
  ok 260 && { timeout 150 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked" $R/test-$t.txt | head -5 >> $S
done
run() { # name limit args...
  local name=$1; local lim=$2; shift 2
  timeout $lim $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2; do
  for a in wide64 portable32; do
    ok 400 && run arith-$a-$r 50 bench --ark-max 0 --sizes 16,20,22 --repeat 7 --arith $a --json $O/arith-$a-$r.json $([ $r = 1 ] && echo "--profile")
  done
done
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  for w in 7 8 9 10 11; do
    ok 500 && run small-$1$2-w$w 20 bench --ark-max 0 --sizes 14,15 --repeat 7 --curve $1 --group $2 --window $w
  done
done
for w in 10 11 13; do
  ok 540 && run p32-w$w 20 bench --ark-max 0 --sizes 16 --repeat 7 --arith portable32 --window $w
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/arith-*.txt $R/p32-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/small-*.txt; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
