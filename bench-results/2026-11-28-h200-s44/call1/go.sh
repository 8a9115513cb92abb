#!/usr/bin/env bash
# Session 44 call 1: where the scatter's time goes, kernel by kernel. main (2db410e) with
# a diagnostic WGPU_MSM_DIAG_SKIP mask in stages/sort.rs's record_scatter (1 = skip
# scatter_bins, 2 = scatter_mid, 4 = scatter_fine; results wrong when set). BN254 G1
# 2^24 at 19 bits (the rule) and 16 bits, 2^22 at 16 and 19 bits; profiles.
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
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for w in 19 16; do
  for m in 0 1 2 4 6; do
    [ $w = 16 ] && [ $m = 2 ] && continue
    ok 400 && WGPU_MSM_DIAG_SKIP=$m run s24-w$w-m$m diag 60 bench --ark-max 0 --sizes 24 --repeat 3 --warmup-ms 300 --window $w --profile --strategy even
  done
done
for w in 16 19; do
  for m in 0 1 2 4; do
    ok 480 && WGPU_MSM_DIAG_SKIP=$m run s22-w$w-m$m diag 40 bench --ark-max 0 --sizes 22 --repeat 3 --warmup-ms 300 --window $w --profile --strategy even
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/s2*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (oneshot|resident|device) +2[24] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "dev", $16}' >> $S; done
