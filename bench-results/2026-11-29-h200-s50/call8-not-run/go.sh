#!/usr/bin/env bash
# Session 50 call 8: M = main (8a270a4) against R (the flagged addition in the
# accumulation's loop; a run that met p == a redone alone with the careful addition
# before its flush; redo-run.patch). No tests (device time): the bench's rows are
# verified, and its repeated bases reach the redo at 2^24. BN254 G1 2^20-2^24, one round.
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
for r in 1; do
  for v in M R; do ok 120 && run a-$v$r $v 60 $B --sizes 20,22,24 --repeat 5 --profile; done
done
for f in $R/a-*.txt $R/p-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bls*.txt $R/g2-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/a-*.txt $R/p-*.txt $R/bls*.txt $R/g2-*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +[12][0-9] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scat", $11, "acc", $12, "fold", $13, "coll", $14, "red", $15, "dev", $16, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:|panicked" $f | head -3 >> $S; done
(cd $O && tar czf raw.tgz raw && rm -rf raw)
