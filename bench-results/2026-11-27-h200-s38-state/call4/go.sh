#!/usr/bin/env bash
# Session 38 call 4 (one H200; wgpu-msm = 4a98814): the resident mode's overlap threshold
# (Tuning::resident_overlap_log2, default 21: a single resident MSM of at least 2^21
# points streams its scalars in growing passes) at 21, 20, 19, 18, two rounds
# alternating, BN254 G1 2^17-2^21.
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
export WGPU_MSM_CACHE_DIR=/tmp/cache
for r in 1 2; do
  for t in 21 20 19 18; do
    ok 480 || break
    WGPU_MSM_RESIDENT_OVERLAP_LOG2=$t timeout 60 $G/bin/wgpu-msm bench --ark-max 0 --sizes 17,18,19,20,21 --repeat 9 > $R/t$t-$r.txt 2>&1
    echo "t$t-$r rc=$? t=$(el)" >> $S
  done
done
ok 540 && WGPU_MSM_RESIDENT_OVERLAP_LOG2=19 timeout 40 $G/bin/wgpu-msm bench --ark-max 0 --sizes 20 --repeat 3 --profile --timeline 20 > $R/prof19.txt 2>&1
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/t*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ NVIDIA.* resident" $f | awk -v k=$k '{print k, $5, $6, $7}' >> $S; done
ls -la $O >> $S
