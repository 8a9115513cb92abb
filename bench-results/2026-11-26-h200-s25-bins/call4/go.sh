#!/usr/bin/env bash
# Session 25 call 4: tiles of 1024 for the scatter in bins (b4) against tiles of 2048
# (bins, d8104f8): BN254 G1 2^20-2^24 two rounds alternating, profiles at 2^24, the G1
# test binary on b4.
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
for r in 1 2; do for k in bins b4; do
  [ $(el) -gt 150 ] && break 2
  timeout 60 $G/bin/$k bench --sizes 20,22,24 --repeat 7 --ark-max 0 > $R/g1-$k-$r.txt 2>&1; echo "g1 $k $r rc=$? t=$(el)" >> $S
  grep "^2026-" $R/g1-$k-$r.txt | grep -v cluster | sed "s|^|r$r $k |" >> $O/table.txt
done; done
for k in bins b4; do
  timeout 60 $G/bin/$k bench --sizes 24 --repeat 3 --ark-max 0 --profile > $R/prof-$k.txt 2>&1; echo "prof $k rc=$? t=$(el)" >> $S
done
timeout 90 $G/bin/gpub4 > $R/test-gpub4.txt 2>&1; echo "test gpub4 rc=$? t=$(el) $(grep 'test result' $R/test-gpub4.txt)" >> $S
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
grep -h "NVIDIA H200  .*  24 " $R/prof-*.txt | awk '{print $4,$5,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18}'
tr -s " " < $O/table.txt | cut -c1-80
