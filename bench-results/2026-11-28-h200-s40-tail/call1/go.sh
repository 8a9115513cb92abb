#!/usr/bin/env bash
# Session 40 call 1 (main at d4df3ad): where the small BN254 G1 MSMs spend their time
# now: profiles and a timeline at 2^16, window widths 10-13 at 2^16 profiled, and the
# small sizes' medians.
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
run() { # name limit args...
  local name=$1; local lim=$2; shift 2
  timeout $lim $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
ok 100 && run prof 120 bench --ark-max 16 --sizes 14,16,17,18,20 --repeat 11 --profile --timeline 16
for c in 10 12 13 11; do
  ok 300 && run w$c 60 bench --ark-max 0 --sizes 16 --repeat 11 --window $c --profile
done
for g in "--curve bn254 --group g2" "--curve bls12-381 --group g1"; do
  n=$(echo $g | tr -d ' -')
  ok 400 && run $n 90 bench --ark-max 0 --sizes 16,18 --repeat 7 --profile $g
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA|#0 NVIDIA" $f | awk -v k=$k '{print k, $0}' | cut -c1-130 >> $S; done
ls -la $O >> $S
