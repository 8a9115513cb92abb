#!/usr/bin/env bash
# Session 47 call 1 (M = 52a86bb): the gpu test binary (the new seeded-passes case);
# how the heads mode moves the accumulation: WGPU_MSM_SEED_PER_BUCKET (default 32) at
# 2^24 all resident (4: the second pass of 8 entries a bucket runs Pieces) and at 2^26
# in 2^21-point 19-bit passes (8: 16 entries a bucket run Pieces) and under 1 GiB.
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
WGPU_MSM_CACHE_DIR=/tmp/cache-M timeout 150 $G/bin/gpu --test-threads 1 > $R/test-gpu.txt 2>&1; echo "test-gpu rc=$? t=$(el)" >> $S
grep -E "^test result|FAILED|panicked" $R/test-gpu.txt | head -3 >> $S
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
for r in 1 2; do
ok 300 && run a24-d$r M 40 $B --sizes 24 --repeat 7 --profile
ok 330 && WGPU_MSM_SEED_PER_BUCKET=4 run a24-s4-$r M 40 $B --sizes 24 --repeat 7 --profile
done
ok 380 && run c21-d M 60 $B --sizes 26 --repeat 3 --chunk 21 --window 19 --profile
ok 420 && WGPU_MSM_SEED_PER_BUCKET=8 run c21-s8 M 60 $B --sizes 26 --repeat 3 --chunk 21 --window 19 --profile
ok 460 && run b26-d M 60 $B --sizes 26 --repeat 3 --budget 1GiB --profile
ok 500 && WGPU_MSM_SEED_PER_BUCKET=8 run b26-s8 M 60 $B --sizes 26 --repeat 3 --budget 1GiB --profile
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/a24*.txt $R/c21*.txt $R/b26*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/a24*.txt $R/c21*.txt $R/b26*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "fold", $13, "coll", $14, "red", $15, "dev", $16, "span", $17, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
