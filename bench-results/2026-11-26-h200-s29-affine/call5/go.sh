#!/usr/bin/env bash
# Session 29 call 5: batch-affine pair additions against XYZZ chains (accum-diag), each
# measurement after 600 ms of untimed dispatches (clocks up), the chain before and after.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=$O/raw; mkdir -p $R
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
d() { local name=$1; shift; timeout 200 $G/bin/wgpu-msm accum-diag "$@" > $R/$name.txt 2>&1; echo "$name rc=$? t=$(( $(date +%s) - T0 ))" >> $S; grep -E "NVIDIA" $R/$name.txt >> $S; tail -3 $R/$name.txt | grep -iE "error|panick" >> $S; }
d rnd-24 --log-entries 24 --log-bases 22 --per 64,256 --chain 64
d seq-24 --log-entries 24 --log-bases 22 --per 64,256 --chain 64 --sequential
d rnd-25 --log-entries 25 --log-bases 22 --per 128 --chain 64
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv >> $S
