#!/usr/bin/env bash
# Session 33 call 6 (b0f8b38: one reserve() for scatter_bins and scatter_mid): the tests
# that run MSMs (g2 with its ignored ones), then the 19-bit rows (nested bins) profiled.
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
for t in embed copied_uploads gpu g2 bls12_381; do
  timeout 200 $G/bin/$t --include-ignored --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
timeout 100 $G/bin/wgpu-msm bench --ark-max 0 --curve bn254 --group g2 --sizes 24 --repeat 5 --profile > $R/g2.txt 2>&1; echo "g2 rc=$? t=$(el)" >> $S
timeout 100 $G/bin/wgpu-msm bench --ark-max 0 --curve bls12-381 --group g1 --sizes 24 --repeat 5 --profile > $R/bls1.txt 2>&1; echo "bls1 rc=$? t=$(el)" >> $S
(cd /tmp && tar czf $O/raw.tgz raw)
