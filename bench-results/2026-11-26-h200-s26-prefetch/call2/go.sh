#!/usr/bin/env bash
# Session 26 call 2: the entries counted per bin in workgroup memory (cb) against main
# (pf, bf5883f): BN254 G1 2^16-2^24 two rounds alternating, BN254 G2 and BLS12-381 G1 at
# 2^20 and 2^24; profiles at 2^20 and 2^24; the tests on cb.
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
for r in 1 2; do for k in pf cb; do
  [ $(el) -gt 150 ] && break 2
  timeout 60 $G/bin/$k bench --sizes 16,20,22,24 --repeat 7 --ark-max 0 > $R/g1-$k-$r.txt 2>&1; echo "g1 $k $r rc=$? t=$(el)" >> $S
  grep "^2026-" $R/g1-$k-$r.txt | grep -v cluster | sed "s|^|r$r $k |" >> $O/table.txt
done; done
for g in "bn254 g2" "bls12-381 g1"; do set -- $g
for k in pf cb; do
  [ $(el) -gt 300 ] && break 2
  timeout 70 $G/bin/$k bench --curve $1 --group $2 --sizes 20,24 --repeat 7 --ark-max 0 > $R/$1-$2-$k.txt 2>&1; echo "grp $1 $2 $k rc=$? t=$(el)" >> $S
  grep "^11-2" $R/$1-$2-$k.txt | sed "s|^|$k |" >> $O/table.txt
done; done
for k in pf cb; do
  [ $(el) -gt 380 ] && break
  timeout 40 $G/bin/$k bench --sizes 20,24 --repeat 3 --ark-max 0 --profile > $R/prof-$k.txt 2>&1; echo "prof $k rc=$? t=$(el)" >> $S
done
for t in gpu g2 bls12_381 portable; do
  [ $(el) -gt 480 ] && break
  timeout 50 $G/bin/$t > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el) $(grep 'test result' $R/test-$t.txt)" >> $S
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
for f in $R/prof-*.txt; do grep "NVIDIA H200  .* device  *2[04] " $f | awk -v k=$(basename $f .txt) '{print k,$5,$9,$10,$11,$12,$13,$14,$15,$16,$17}'; done
tr -s " " < $O/table.txt | cut -c1-80
