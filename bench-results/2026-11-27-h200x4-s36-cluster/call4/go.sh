#!/usr/bin/env bash
# Session 36, four H200s, call 4 (wgpu-msm at 10881f2, library code = 8092617): the
# one-shot cluster of four at 2^22 and 2^24 under 6, 8 and 12 (the default) upload threads
# a device, two rounds alternating, median of 9. Call 2's single runs had 6 ahead of 12.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=$O/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 >> $S
for r in 1 2; do
  for t in 12 6 8; do
    ok 200 && { WGPU_MSM_UPLOAD_THREADS=$t timeout 60 $G/bin/wgpu-msm bench --sizes 22,24 --repeat 9 --ark-max 0 > $R/t$t-$r.txt 2>&1; echo "threads $t round $r rc=$? t=$(el)" >> $S; }
  done
done
for f in $R/*.txt; do echo "== $(basename $f)" >> $S; grep -E "^2026-11-27 cluster" $f | cut -c1-100 >> $S; done
