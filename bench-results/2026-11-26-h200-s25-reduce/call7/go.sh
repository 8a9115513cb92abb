#!/usr/bin/env bash
# Session 25 call 7: the bin kernels sharing the scan's lane scan (dedup) against 0c32039
# (red2): BN254 G1 2^16-2^24 and BN254 G2 2^20 one round each, then the G1, G2 and
# BLS12-381 tests on dedup.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
t0=$(date +%s)
el() { echo $(( $(date +%s)-t0 )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
for k in red2 dedup; do
  timeout 60 $G/bin/$k bench --sizes 16,20,22,24 --repeat 7 --ark-max 0 > $R/g1-$k.txt 2>&1; echo "g1 $k rc=$? t=$(el)" >> $S
  grep "^2026-" $R/g1-$k.txt | grep -v cluster | sed "s|^|$k |" >> $O/table.txt
  timeout 60 $G/bin/$k bench --curve bn254 --group g2 --sizes 20 --repeat 7 --ark-max 0 > $R/g2-$k.txt 2>&1; echo "g2 $k rc=$? t=$(el)" >> $S
  grep "^11-2" $R/g2-$k.txt | sed "s|^|$k |" >> $O/table.txt
done
for t in gpu g2 bls12_381; do
  timeout 60 $G/bin/$t > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el) $(grep 'test result' $R/test-$t.txt)" >> $S
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
tr -s " " < $O/table.txt | cut -c1-80
