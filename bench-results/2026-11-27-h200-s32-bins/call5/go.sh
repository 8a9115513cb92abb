#!/usr/bin/env bash
# Session 32 call 5: scatter_fine tile-parallel too (a workgroup per tile of the entries
# by fine bin, each bucket's run reserved by one global atomic) on top of call 4's
# tile-parallel scatter_mid; against atomic cursors (WGPU_MSM_SCATTER_BINS=0) in the
# same binary: the tests that run MSMs, then 16- and 19-bit rows profiled.
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
  run g1-bins-$r X=1 --sizes 16,20,22,24 --repeat 5 --profile
  run g1-curs-$r $C --sizes 16,20,22,24 --repeat 5 --profile
done
run g1-c19-bins X=1 --sizes 24 --repeat 5 --profile --window 19
run g2-bins X=1 --curve bn254 --group g2 --sizes 20,22,24 --repeat 5 --profile
run g2-curs $C --curve bn254 --group g2 --sizes 20,22,24 --repeat 5 --profile
run bls1-bins X=1 --curve bls12-381 --group g1 --sizes 20,22,24 --repeat 5 --profile
run bls1-curs $C --curve bls12-381 --group g1 --sizes 20,22,24 --repeat 5 --profile
run bls2-bins X=1 --curve bls12-381 --group g2 --sizes 20,24 --repeat 5 --profile
run bls2-curs $C --curve bls12-381 --group g2 --sizes 20,24 --repeat 5 --profile
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-200 >> $S; done
