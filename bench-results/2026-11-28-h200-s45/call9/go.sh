#!/usr/bin/env bash
# Session 45 call 9: the final commit's gpu tests on the H200 (the 22-bit MSM test's
# error arms changed in review) and a BN254 G1 2^24 row.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
WGPU_MSM_CACHE_DIR=/tmp/cache-F timeout 150 $G/bin/gpu --test-threads 1 --nocapture > $R/test-gpu.txt 2>&1; echo "test gpu rc=$? t=$(el)" >> $S
grep -E "test result|FAILED|panicked|22-bit" $R/test-gpu.txt | head -5 >> $S
WGPU_MSM_CACHE_DIR=/tmp/cache-F timeout 40 $G/bin/wgpu-msm-F bench --ark-max 0 --warmup-ms 300 --strategy even --sizes 24 --repeat 7 > $R/g1-F.txt 2>&1; echo "g1-F rc=$? t=$(el)" >> $S
grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $R/g1-F.txt | awk '{print "g1-F", $5, $6, $7, $NF}' >> $S
(cd /tmp && tar czf $O/raw.tgz raw)
