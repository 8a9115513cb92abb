#!/usr/bin/env bash
# Session 32 call 1: nested bins for windows of more than 2^15 buckets (scatter_bins ->
# scatter_mid -> scatter_fine) against atomic cursors (WGPU_MSM_SCATTER_BINS=0), same
# binary: the tests that run MSMs, then the 19-bit rows at 2^24 (and 2^22) profiled.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
run() { # name env args...
  local name=$1; local e=$2; shift 2
  env $e timeout 150 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in gpu bls12_381 g2 embed copied_uploads; do
  timeout 150 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
C=WGPU_MSM_SCATTER_BINS=0
for r in 1 2; do
  run g2-bins-$r X=1 --curve bn254 --group g2 --sizes 24 --repeat 5 --profile
  run g2-curs-$r $C --curve bn254 --group g2 --sizes 24 --repeat 5 --profile
done
run bls1-bins X=1 --curve bls12-381 --group g1 --sizes 24 --repeat 5 --profile
run bls1-curs $C --curve bls12-381 --group g1 --sizes 24 --repeat 5 --profile
run g1-c19-bins X=1 --sizes 24 --repeat 5 --profile --window 19
run g1-c19-curs $C --sizes 24 --repeat 5 --profile --window 19
run g1-c16 X=1 --sizes 24 --repeat 5 --profile
run g2-22-c19 X=1 --curve bn254 --group g2 --sizes 22 --repeat 5 --profile --window 19
run g2-22-c16 X=1 --curve bn254 --group g2 --sizes 22 --repeat 5 --profile
run bls2-bins X=1 --curve bls12-381 --group g2 --sizes 24 --repeat 5 --profile
run bls2-curs $C --curve bls12-381 --group g2 --sizes 24 --repeat 5 --profile
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-200 >> $S; done
