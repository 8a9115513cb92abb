#!/usr/bin/env bash
# Session 52 call 3: A = main (bd3ca09: a run's sum kept in the register machine's
# registers) against F (branch fused-chains: a product and the subtraction after it, and
# a sum and the subtraction of it, one step each: the mixed addition in 11 steps instead
# of 15); M = 4760d6f for BN254 G1 (A's private running sum in its written-out kernel).
# BLS12-381 G1, BN254 G2 and BLS12-381 G2 2^20 and 2^24 (two rounds for the G1 groups
# and BN254 G2), BN254 G1 M and A two rounds; then F's bls12_381 and g2 tests.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=$O/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
for r in 1 2; do
  for v in A F; do ok 250 && run bls-$v$r $v 80 $B --curve bls12-381 --sizes 20,24 --repeat 7 --profile; done
  for v in A F; do ok 280 && run g2-$v$r $v 80 $B --curve bn254 --group g2 --sizes 20,24 --repeat 7 --profile; done
  for v in M A; do ok 310 && run g1-$v$r $v 60 $B --sizes 20,24 --repeat 7 --profile; done
done
for v in A F; do ok 420 && run b2-$v $v 80 $B --curve bls12-381 --group g2 --sizes 20,24 --repeat 7 --profile; done
cd $G/bin
ok 500 && { WGPU_MSM_CACHE_DIR=/tmp/cache-F timeout 40 ./bls12_381 > $R/t-bls.txt 2>&1; echo "t-bls rc=$? t=$(el)" >> $S; }
ok 530 && { WGPU_MSM_CACHE_DIR=/tmp/cache-F timeout 50 ./g2 --include-ignored > $R/t-g2.txt 2>&1; echo "t-g2 rc=$? t=$(el)" >> $S; }
grep -h "test result" $R/t-*.txt >> $S
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^1[12]-[0-9]+ +[a-z0-9-]+ +#0 NVIDIA|^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $0}' | sed -E 's/ +/ /g' >> $S; done
for f in $R/[bg]*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +[12][0-9] " $f | awk -v k=$k '{print k, $4, $5, "acc", $12, "dev", $16, "total", $21}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:|panicked|FAILED" $f | head -3 >> $S; done
(cd $O && tar czf raw.tgz raw && rm -rf raw)
