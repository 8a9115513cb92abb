#!/usr/bin/env bash
# Session 47 call 4: M = 52a86bb against H (`hoist.patch` over M: at a bucket change the
# next head's seed is loaded before the finished run is packed and stored, and unpacked
# after). BN254 G1 2^24 and 2^26 under 1 GiB, two rounds alternating; BLS12-381 G1 and
# BN254 G2 2^24 (every later pass seeds), one round.
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
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
for r in 1 2; do
  for v in M H; do ok 200 && run a24-$v$r $v 50 $B --sizes 24 --repeat 7 --profile; done
  for v in M H; do ok 300 && run b26-$v$r $v 60 $B --sizes 26 --repeat 5 --budget 1GiB --profile; done
done
for v in M H; do ok 420 && run bls-$v $v 60 $B --curve bls12-381 --group g1 --sizes 24 --repeat 5; done
for v in M H; do ok 500 && run g2-$v $v 60 $B --curve bn254 --group g2 --sizes 24 --repeat 5; done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/a24*.txt $R/b26*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bls*.txt $R/g2-*.txt; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
for f in $R/a24*.txt $R/b26*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "scat", $11, "acc", $12, "coll", $14, "dev", $16, "span", $17, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
