#!/usr/bin/env bash
# Session 47 call 2: the seeding load's cost. M = 52a86bb; T = M with the next bucket's
# total touched (one word a sector) an addition ahead of its seeding load; D = a
# diagnostic whose seeding loads read 8 fixed totals a window (cache hits; results
# wrong, timing only). BN254 G1 2^24 (three modes) and 2^26 under 1 GiB, profiles.
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
  for v in M T D; do ok 300 && run a24-$v$r $v 60 $B --sizes 24 --repeat 7 --profile; done
done
for v in M T D; do ok 420 && run b26-$v $v 60 $B --sizes 26 --repeat 3 --budget 1GiB --profile; done
for v in M T; do ok 500 && run c21-$v $v 60 $B --sizes 26 --repeat 3 --chunk 21 --window 19 --profile; done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/a24*.txt $R/b26*.txt $R/c21*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/a24*.txt $R/b26*.txt $R/c21*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scat", $11, "acc", $12, "coll", $14, "red", $15, "dev", $16, "span", $17, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
