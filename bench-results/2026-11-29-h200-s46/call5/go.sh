#!/usr/bin/env bash
# Session 46 call 5 (F = 74e4e87, Q = 3513cab with budget cuts back in 16ths): the test
# binaries (gpu, bls12_381, g2, bounded) of Q; the budget-bound resident rows of the
# other groups, whose plans changed (BN254 G2, BLS12-381 G1 at 2^24, resident budget
# 1 GiB), Q against F; 2^26 under 1 GiB and the 2^24 one-shot of Q.
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
run() { # name bin limit args... (env passes through)
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in gpu bls12_381 g2 bounded; do
  WGPU_MSM_CACHE_DIR=/tmp/cache-Q timeout 150 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test-$t rc=$? t=$(el)" >> $S
  grep -E "^test result|FAILED|panicked" $R/test-$t.txt | head -3 >> $S
done
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
for b in F Q; do
  ok 330 && run g2-$b $b 70 $B --curve bn254 --group g2 --sizes 24 --repeat 5 --resident-budget 1GiB
done
for b in F Q; do
  ok 420 && run bls1-$b $b 60 $B --curve bls12-381 --group g1 --sizes 24 --repeat 5 --resident-budget 1GiB
done
ok 480 && run b26-Q Q 60 $B --sizes 26 --repeat 7 --budget 1GiB
ok 520 && run g24-Q Q 40 $B --sizes 24 --repeat 7
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/b26*.txt $R/g24*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/g2-*.txt $R/bls1-*.txt; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
