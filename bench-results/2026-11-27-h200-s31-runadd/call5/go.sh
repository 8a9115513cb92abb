#!/usr/bin/env bash
# Session 31 call 5: wide windows reduced in parts of 2^15 buckets (Plan::reduce_parts:
# 8 parts at 19 bits, each with a 16-bit window's threads; a fourth window sum, the
# part's total, for the host's weights). v41 call 4's profile of BN254 G2 2^24 all
# resident: reduce 8.3 ms at 19 bits against 1.6 at 16. Tests (embed's window_ranges
# runs 19-bit windows), then the 2^24 rows of the groups at 19 bits, profiled.
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
run g2 --curve bn254 --group g2 --sizes 24 --repeat 7 --profile
run bls1 --curve bls12-381 --group g1 --sizes 24 --repeat 7 --profile
run bls2 --curve bls12-381 --group g2 --sizes 24 --repeat 5 --profile
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-200 >> $S; done
