#!/usr/bin/env bash
# Session 40 call 7 (the final library, da8efdf): tests g2 (with its ignored ones),
# bounded, portable and cluster on the H200, then BN254 G1 2^16-2^24 and the other
# groups at 2^16/2^20, one round, median of 7.
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
for t in "g2 --include-ignored" bounded portable cluster; do
  set -- $t
  ok 300 && { timeout 200 $G/bin/$1 --test-threads 1 ${2:-} > $R/test-$1.txt 2>&1; echo "test $1 rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked" $R/test-$1.txt | head -5 >> $S
done
run() { # name limit args...
  local name=$1; local lim=$2; shift 2
  timeout $lim $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
ok 380 && run g1 90 bench --ark-max 0 --sizes 16,20,22,24 --repeat 7
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  ok 460 && run $1$2 60 bench --ark-max 0 --sizes 16,20 --repeat 7 --curve $1 --group $2
done
(cd /tmp && tar czf $O/raw.tgz raw)
grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $R/g1.txt | cut -c1-130 >> $S
for f in $R/bn254g2.txt $R/bls12-381g1.txt $R/bls12-381g2.txt; do k=$(basename $f .txt); grep -E "#0 NVIDIA.*(oneshot|resident|device)" $f | awk -v k=$k '{print k, $0}' | cut -c1-130 >> $S; done
ls -la $O >> $S
