#!/usr/bin/env bash
# Session 44 call 8: scatter_bins and scatter_mid taking 2 (C2) or 4 (C4) tiles a
# workgroup in turn, each tile's entries loaded while the one before is sorted, against
# f7253b5 (B). Tests gpu, bls12_381, g2 with C2; BN254 G1 2^20/2^22/2^24, B / C2 / C4
# alternating, two rounds (median of 7), profiles.
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
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in gpu bls12_381 g2; do
  ok 150 && { WGPU_MSM_CACHE_DIR=/tmp/cache-C2 timeout 120 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked" $R/test-$t.txt | head -5 >> $S
done
for r in 1 2; do
  for b in B C2 C4; do
    ok 300 && run g1-$b-$r $b 40 bench --ark-max 0 --sizes 20,22,24 --repeat 7 --warmup-ms 300 --profile --strategy even
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device) +2[024] " $f | awk -v k=$k '{print k, $4, $5, "scat", $11, "dev", $16}' >> $S; done
