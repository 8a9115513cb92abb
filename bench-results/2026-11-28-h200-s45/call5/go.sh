#!/usr/bin/env bash
# Session 45 call 5: the one-shot 2^24's passes with 22-bit windows (H = bcce108's
# build): the largest pass (--chunk 23 against the overlap's 2^22), the first pass's
# shift and the growth. BN254 G1 2^24, median of 7, one round each; the default first and last.
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
B="bench --ark-max 0 --sizes 24 --repeat 7 --warmup-ms 300 --strategy even"
ok 300 && run g1-def-1 H 40 $B
for v in c22:3:400 c22:4:400 c22:4:300 c23:3:250 c23:3:400 c23:4:250 c23:4:400 c23:5:300 c23:2:250; do
  IFS=: read c s g <<< "$v"
  export WGPU_MSM_FIRST_PASS_SHIFT=$s WGPU_MSM_PASS_GROWTH=$g
  if [ $c = c23 ]; then ok 330 && run g1-$c-s$s-g$g H 40 $B --chunk 23; else ok 330 && run g1-$c-s$s-g$g H 40 $B; fi
  unset WGPU_MSM_FIRST_PASS_SHIFT WGPU_MSM_PASS_GROWTH
done
ok 360 && run g1-def-2 H 40 $B --profile --timeline 24
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/g1-*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
