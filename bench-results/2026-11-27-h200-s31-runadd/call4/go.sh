#!/usr/bin/env bash
# Session 31 call 4 (xyzz_madd_run on the register machine; 19-bit windows from 2^24 for
# every feed of the groups other than BN254 G1): the parity tests that run MSMs, then
# every group's rows at 2^20-2^24 with the new defaults (issue 26's table).
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
run() { # name args...
  local name=$1; shift
  timeout 150 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in gpu bls12_381 g2; do
  timeout 150 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
run g2 --curve bn254 --group g2 --sizes 20,22,24 --repeat 7
run bls1 --curve bls12-381 --group g1 --sizes 20,22,24 --repeat 7
run bls2 --curve bls12-381 --group g2 --sizes 20,22,24 --repeat 5
run g1 --sizes 20,22,24 --repeat 7
run g2prof --curve bn254 --group g2 --sizes 24 --repeat 3 --profile --timeline 24
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; done
