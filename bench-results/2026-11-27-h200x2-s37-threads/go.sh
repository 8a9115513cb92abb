#!/usr/bin/env bash
# Session 37 call 1 (two H200s of one host; main at 55cd924): upload threads a device
# (WGPU_MSM_UPLOAD_THREADS 4, 6, 8, 12 = default, 16) for BN254 G1 one-shot MSMs at
# 2^20-2^24, on each device alone and on the pair, two rounds in opposite orders.
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
nproc >> $S
$G/bin/wgpu-msm list > $R/list.txt 2>&1; grep -c "H200" $R/list.txt >> $S
r=0
for order in "12 6 16 8 4" "4 8 16 6 12"; do
  r=$((r+1))
  for t in $order; do
    ok 520 || break
    WGPU_MSM_UPLOAD_THREADS=$t timeout 100 $G/bin/wgpu-msm bench --sizes 20,22,24 --repeat 7 --ark-max 0 > $R/bench-r$r-t$t.txt 2>&1
    echo "round $r threads $t rc=$? t=$(el)" >> $S
  done
done
for f in $R/bench-*.txt; do echo "== $(basename $f)" >> $S; grep -E "oneshot|verified|FAILED|rror" $f | cut -c1-140 >> $S; done
