#!/usr/bin/env bash
# Session 39 call 7: `arith` with the 8-chain kernels' words loaded inline (7707322,
# wgpu-msm-inline) and through one helper (b9114ec, wgpu-msm), same card, alternating:
# call 1 (H200, inline) and call 6 (H100, helper) disagreed on the dot4 / u32 ratio.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
for r in 1 2; do
  for b in wgpu-msm-inline wgpu-msm; do
    WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout 60 $G/bin/$b arith --threads 262144 --iters 16384 > $R/$b-$r.txt 2>&1
    echo "$b-$r rc=$?" >> $S
    grep NVIDIA $R/$b-$r.txt | awk -v k=$b-$r '{print k, $0}' | cut -c1-170 >> $S
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
