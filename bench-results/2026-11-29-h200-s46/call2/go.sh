#!/usr/bin/env bash
# Session 46 call 2 (F = 74e4e87, N = bucket partials one a chunk where every pass
# seeds, so 2^26 under 1 GiB takes 19-bit windows): gpu tests of N; 2^26 under 1 GiB
# N against F; BN254 G1 2^16-2^24 N against F (no change expected below 2^24).
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
WGPU_MSM_CACHE_DIR=/tmp/cache-N timeout 200 $G/bin/gpu --test-threads 1 > $R/test-gpu.txt 2>&1; echo "test-gpu rc=$? t=$(el)" >> $S
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
ok 260 && run b26-N N 80 $B --sizes 26 --repeat 5 --budget 1GiB --profile
ok 340 && run b26-F F 80 $B --sizes 26 --repeat 5 --budget 1GiB --profile
ok 400 && run g1-N N 60 $B --sizes 16,20,22,24 --repeat 7
ok 460 && run g1-F F 60 $B --sizes 16,20,22,24 --repeat 7
ok 520 && run g1-N2 N 60 $B --sizes 16,20,22,24 --repeat 7
(cd /tmp && tar czf $O/raw.tgz raw)
grep -E "^test result|FAILED|panicked" $R/test-gpu.txt | head -5 >> $S
for f in $R/b26*.txt $R/g1*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/b26*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device|oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16, "span", $17, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
