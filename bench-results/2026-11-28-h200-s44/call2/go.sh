#!/usr/bin/env bash
# Session 44 call 2: the pipeline cache of call 1's build (for the sort kernels' SASS),
# and the scatter with the device's workgroup memory capped at 16 KiB (does the driver
# size the sort kernels' workgroup memory by the whole module's?). BN254 G1 2^22/2^24.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2; do
ok 200 && run def-$r diag 60 bench --ark-max 0 --sizes 22,24 --repeat 3 --warmup-ms 300 --profile --strategy even
ok 200 && WGPU_MSM_MAX_WORKGROUP_STORAGE=16384 run cap16k-$r diag 60 bench --ark-max 0 --sizes 22,24 --repeat 3 --warmup-ms 300 --profile --strategy even
done
mkdir -p $O/cache; cp /tmp/cache-diag/* $O/cache/ 2>/dev/null; ls -la /tmp/cache-diag >> $S
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (oneshot|resident|device) +2[24] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16}' >> $S; done
