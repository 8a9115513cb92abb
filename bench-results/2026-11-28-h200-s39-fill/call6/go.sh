#!/usr/bin/env bash
# Session 39 call 6: the session's final build (b9114ec) on one H200: tests gpu, bounded,
# g2 (with its ignored tests) and bls12_381; `arith` with the chain kernels' words loaded
# through one helper (b9114ec) against call 1's figures; BN254 G1 2^16-2^24 and
# BLS12-381 G1 2^24 one-shot under 1 GiB (the budget fill) as a last check.
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
for t in gpu bounded g2 bls12_381; do
  a=""; [ $t = g2 ] && a="--include-ignored"
  timeout 150 $G/bin/$t --test-threads 1 $a > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
ok 300 && { timeout 60 $G/bin/wgpu-msm arith --threads 262144 --iters 16384 > $R/arith.txt 2>&1; echo "arith rc=$? t=$(el)" >> $S; }
ok 330 && { timeout 90 $G/bin/wgpu-msm bench --sizes 16,20,22,24 --ark-max 20 --repeat 9 > $R/g1.txt 2>&1; echo "g1 rc=$? t=$(el)" >> $S; }
ok 420 && { timeout 60 $G/bin/wgpu-msm bench --ark-max 0 --curve bls12-381 --group g1 --sizes 24 --repeat 7 --budget 1GiB > $R/bls1-budget.txt 2>&1; echo "bls1-budget rc=$? t=$(el)" >> $S; }
(cd /tmp && tar czf $O/raw.tgz raw)
grep -E "NVIDIA" $R/arith.txt | cut -c1-160 >> $S
grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $R/g1.txt | cut -c1-130 >> $S
grep -E "#0 NVIDIA" $R/bls1-budget.txt | cut -c1-120 >> $S
ls -la $O >> $S
