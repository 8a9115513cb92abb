#!/usr/bin/env bash
# Session 47 call 3 (M = 52a86bb): the 2^26 stream under 1 GiB under the knobs that
# shape its passes' stages: scatter by cursors instead of bins (WGPU_MSM_SCATTER_BINS=0),
# accumulation threads 2^16 / 2^18 (default 2^17 for its 2^21 shape), whole waves off;
# the 2^24 row beside them. Profiles.
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
X="$B --sizes 26 --repeat 5 --budget 1GiB --profile"
ok 100 && run a24 M 40 $B --sizes 24 --repeat 7
ok 200 && run b26-d1 M 60 $X
ok 250 && WGPU_MSM_SCATTER_BINS=0 run b26-cur M 60 $X
ok 300 && WGPU_MSM_ACCUMULATE_THREADS_LOG2=16 run b26-t16 M 60 $X
ok 350 && WGPU_MSM_ACCUMULATE_THREADS_LOG2=18 run b26-t18 M 60 $X
ok 400 && WGPU_MSM_WHOLE_WAVES=0 run b26-nw M 60 $X
ok 450 && run b26-d2 M 60 $X
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/a24*.txt $R/b26*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/b26*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scat", $11, "acc", $12, "fold", $13, "coll", $14, "red", $15, "dev", $16, "span", $17, "total", $21, "passes", $22, "running", $23}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
