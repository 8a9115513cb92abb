#!/usr/bin/env bash
# Session 27 call 7 (diagnostic build wgpu-msm-f64: `bench_dot4` runs four chains of f64
# fused multiply-adds, with SHADER_F64 asked for): does wgpu's Vulkan backend issue f64
# FMAs on NVIDIA, and at what rate beside the 32-bit multiply-add chains? The "dot4 G/s"
# column reads f64 FMAs here.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
B=$G/bin/wgpu-msm-f64
for a in "262144 16384" "262144 16384" "1048576 4096" "65536 65536"; do
  set -- $a
  echo "threads $1 iters $2" >> $S
  timeout 120 $B arith --threads $1 --iters $2 2>&1 | grep -v "^\s*$" | tail -3 >> $S
done
timeout 60 $B list >> $S 2>&1
cat $S
