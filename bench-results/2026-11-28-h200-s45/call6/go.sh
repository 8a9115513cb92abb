#!/usr/bin/env bash
# Session 45 call 6: the streamed one-shot's pass growth, 250% (default) against 400%
# (WGPU_MSM_PASS_GROWTH), H = bcce108's build: BN254 G1 2^20/2^22/2^24 two rounds
# alternating, the other groups at 2^24 one round; median of 7 (5 for the G2 groups).
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
B="bench --ark-max 0 --repeat 7 --warmup-ms 300 --strategy even"
for r in 1 2; do
  for g in 250 400; do
    export WGPU_MSM_PASS_GROWTH=$g
    ok 260 && run g1-g$g-$r H 60 $B --sizes 20,22,24
  done
done
for g in 250 400; do
  export WGPU_MSM_PASS_GROWTH=$g
  ok 330 && run bls12-381g1-g$g-1 H 50 $B --sizes 24 --curve bls12-381
  ok 360 && run bn254g2-g$g-1 H 50 $B --sizes 24 --group g2 --repeat 5
  ok 400 && run bls12-381g2-g$g-1 H 60 $B --sizes 24 --curve bls12-381 --group g2 --repeat 5
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA|^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $0}' | cut -c1-150 >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
