#!/usr/bin/env bash
# Session 31 call 8: the review's mend (a window's reduction parts derived from its
# buckets on both sides instead of a Plan and Params field; the 19-bit rule keyed on
# the register machine): the tests that run MSMs, then 2^20 and 2^24 rows verified.
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
for t in gpu bls12_381 g2 embed; do
  timeout 150 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
run g2 --curve bn254 --group g2 --sizes 20,24 --repeat 5
run bls1 --curve bls12-381 --group g1 --sizes 20,24 --repeat 5
run g1 --sizes 20,24 --repeat 5
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-200 >> $S; done
