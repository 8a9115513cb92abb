#!/usr/bin/env bash
# Session 45 call 2: the reduction walk segments' cap (WGPU_MSM_DIAG_SEG_CAP) at 19-bit (default)
# and 22-bit GLV windows, BN254 G1 2^24, one round, median of 7, profiles.
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
for v in A:19:4 A:19:5 W:22:4 W:22:5 W:22:6 W:22:7; do
  IFS=: read n w c <<< "$v"
  export WGPU_MSM_DIAG_SEG_CAP=$c; ok 330 && run g1-$n$w-c$c S 60 bench --ark-max 0 --sizes 24 --repeat 7 --warmup-ms 300 --profile --strategy even --window $w
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device) +2[0-4] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16}' >> $S; done
for f in $R/g1-*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
