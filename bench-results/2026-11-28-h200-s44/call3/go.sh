#!/usr/bin/env bash
# Session 44 call 3: the sort kernels with fewer serial steps a tile, as runtime
# switches of one diagnostic build (call3/diag-variants.patch on 2db410e):
# WGPU_MSM_DIAG_SG = the lanes' exclusive scan by subgroup operations (two barriers
# instead of sixteen); WGPU_MSM_DIAG_KEY = each staged entry's bin kept beside it in
# workgroup memory instead of a binary search over the bins' starts. BN254 G1
# 2^20/2^22/2^24 (16/16/19-bit windows, the rule), profiles, two rounds alternating.
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
run() { # name cache limit args...
  local name=$1; local c=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$c timeout $lim $G/bin/wgpu-msm-diag "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2; do
  ok 400 && run main-$r main 60 bench --ark-max 0 --sizes 20,22,24 --repeat 5 --warmup-ms 300 --profile --strategy even
  ok 400 && WGPU_MSM_DIAG_SG=1 run sg-$r sg 60 bench --ark-max 0 --sizes 20,22,24 --repeat 5 --warmup-ms 300 --profile --strategy even
  ok 400 && WGPU_MSM_DIAG_KEY=1 run key-$r key 60 bench --ark-max 0 --sizes 20,22,24 --repeat 5 --warmup-ms 300 --profile --strategy even
  ok 400 && WGPU_MSM_DIAG_SG=1 WGPU_MSM_DIAG_KEY=1 run both-$r both 60 bench --ark-max 0 --sizes 20,22,24 --repeat 5 --warmup-ms 300 --profile --strategy even
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device) +2[024] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16}' >> $S; done
