#!/usr/bin/env bash
# Session 51 call 1: M = main (f9f1e87) against R (branch flagged-madd 27f8dc8: the
# flagged mixed addition in the accumulation's loop; a run that met p == a redone alone
# with the careful addition before its flush). BN254 G1 2^20-2^24 two rounds (the bench's
# rows verified against the CUDA parity vectors), then R's gpu and bls12_381 tests.
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
  for v in M R; do ok 300 && run a-$v$r $v 80 $B --sizes 20,22,24 --repeat 7 --profile; done
done
cd $G/bin
ok 420 && { WGPU_MSM_CACHE_DIR=/tmp/cache-R timeout 150 ./gpu > $R/t-gpu.txt 2>&1; echo "t-gpu rc=$? t=$(el)" >> $S; }
ok 480 && { WGPU_MSM_CACHE_DIR=/tmp/cache-R timeout 100 ./bls12_381 > $R/t-bls.txt 2>&1; echo "t-bls rc=$? t=$(el)" >> $S; }
grep -h "test result" $R/t-*.txt >> $S
for f in $R/a-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/a-*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +[12][0-9] " $f | awk -v k=$k '{print k, $4, $5, "acc", $12, "dev", $16, "total", $21}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:|panicked|FAILED" $f | head -3 >> $S; done
(cd $O && tar czf raw.tgz raw && rm -rf raw)
