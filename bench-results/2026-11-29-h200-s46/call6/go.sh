#!/usr/bin/env bash
# Session 46 call 6 (R = 2e2429a: bucket partials by chunk only where P = C < B): the
# test binaries (gpu, bls12_381, g2, bounded) of R; 2^26 under 1 GiB beside the 2^24
# one-shot; BN254 G2 and BLS12-381 G1 2^24 under a 1 GiB resident budget; BN254 G1
# 2^16-2^22.
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
  WGPU_MSM_CACHE_DIR=/tmp/cache-R timeout 150 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test-$t rc=$? t=$(el)" >> $S
  grep -E "^test result|FAILED|panicked" $R/test-$t.txt | head -3 >> $S
done
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
ok 300 && run b26-R R 60 $B --sizes 26 --repeat 7 --budget 1GiB
ok 340 && run g24-R R 40 $B --sizes 24 --repeat 7
ok 390 && run g2-R R 60 $B --curve bn254 --group g2 --sizes 24 --repeat 5 --resident-budget 1GiB
ok 430 && run bls1-R R 50 $B --curve bls12-381 --group g1 --sizes 24 --repeat 5 --resident-budget 1GiB
ok 480 && run g1-R R 50 $B --sizes 16,20,22 --repeat 7
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/b26*.txt $R/g24*.txt $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/g2-*.txt $R/bls1-*.txt; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
