#!/usr/bin/env bash
# Session 38 call 1 (one H200; main at 8ed0600, no change): the current state for
# BENCHMARKS.md in one call. The GPU tests that run MSMs; every group's rows in all
# three modes beside arkworks; Portable32 against Wide64 alternating; 2^26 under a
# 1 GiB budget; and the cooperative-matrix configurations wgpu 30 reports (debug log).
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
RUST_LOG=wgpu_hal=debug timeout 60 $G/bin/wgpu-msm list > $R/list-debug.txt 2>&1
echo "list rc=$? t=$(el)" >> $S
grep -iE "coop" $R/list-debug.txt | sort | uniq -c | head -40 >> $S
for t in gpu g2 bls12_381 embed copied_uploads groth16; do
  a=""; [ $t = g2 ] && a="--include-ignored"
  timeout 200 $G/bin/$t $a --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
ok 300 && run g1 120 bench --sizes 16,17,18,20,22,24 --ark-max 20 --repeat 9 --profile
ok 330 && run bls1 90 bench --curve bls12-381 --group g1 --sizes 20,22,24 --ark-max 20 --repeat 7
ok 360 && run g2 90 bench --curve bn254 --group g2 --sizes 20,22,24 --ark-max 20 --repeat 7
ok 390 && run bls2 120 bench --curve bls12-381 --group g2 --sizes 20,22,24 --ark-max 20 --repeat 7
for r in 1 2; do
  ok 460 && run p32-$r 60 bench --ark-max 0 --arith portable32 --sizes 16,20,22 --repeat 7
  ok 480 && run w64-$r 45 bench --ark-max 0 --arith wide64 --sizes 16,20,22 --repeat 7
done
ok 520 && run budget26 60 bench --ark-max 0 --sizes 26 --budget 1GiB --repeat 5
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ .*(oneshot|resident|device) " $f | awk -v k=$k '{print k, $0}' | cut -c1-130 >> $S; done
ls -la $O >> $S
