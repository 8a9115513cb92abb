#!/usr/bin/env bash
# Session 39, one H100: the current state of BENCHMARKS.md's H100 section (last run
# 2026-11-23 at c26de8b) at db68408: tests gpu, g2 (with its ignored tests) and
# bls12_381, then BN254 G1 2^16-2^24 beside arkworks (2^16-2^20) and every other group
# at 2^20 (beside arkworks) and 2^24.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
export WGPU_MSM_CACHE_DIR=/tmp/cache-wgpu-msm
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
nproc >> $S
for t in gpu g2 bls12_381; do
  a=""; [ $t = g2 ] && a="--include-ignored"
  timeout 150 $G/bin/$t --test-threads 1 $a > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
run() { # name timeout args...
  local n=$1 to=$2; shift 2
  timeout $to $G/bin/wgpu-msm "$@" > $R/$n.txt 2>&1; echo "$n rc=$? t=$(el)" >> $S
}
ok 300 && run g1 120 bench --sizes 16,18,20,21,22,24 --ark-max 20 --repeat 9
ok 380 && run bls1 70 bench --curve bls12-381 --group g1 --sizes 20,24 --ark-max 20 --repeat 7
ok 440 && run g2 70 bench --curve bn254 --group g2 --sizes 20,24 --ark-max 20 --repeat 7
ok 490 && run bls2 90 bench --curve bls12-381 --group g2 --sizes 20,24 --ark-max 20 --repeat 7
(cd /tmp && tar czf $O/raw.tgz raw)
grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $R/g1.txt | cut -c1-130 >> $S
for f in bls1 g2 bls2; do grep -E "#0 NVIDIA|arkworks" $R/$f.txt | awk -v k=$f '{print k, $0}' | cut -c1-120 >> $S; done
ls -la $O >> $S
