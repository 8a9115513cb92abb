#!/usr/bin/env bash
# Session 49 call 3: what the conversions between memory words and the registers' 29-bit
# limbs cost the Wide64 accumulation. M = 69eeebf (main); U = M with `fq_unpack` and
# `fq_pack_lazy` made trivial in the MSM stages' point loads and stores (trivial-conversions.patch: words masked to limbs, limbs
# masked to words; the on-curve check keeps the real ones; a diagnostic, its results wrong by design). BN254 G1 2^20-2^24 two
# rounds alternating.
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
  for v in M U; do ok 300 && run a-$v$r $v 60 $B --sizes 20,22,24 --repeat 7 --profile; done
done
# (BLS12-381 G1 not run: the diagnostic conversions exist for BN254 G1 only)
for f in $R/a-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bls*.txt; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
for f in $R/a-*.txt $R/bls*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scat", $11, "acc", $12, "coll", $14, "red", $15, "dev", $16, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:|panicked" $f | head -3 >> $S; done
(cd $O && tar czf raw.tgz raw && rm -rf raw)
