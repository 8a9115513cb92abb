#!/usr/bin/env bash
# Session 25 call 6: the window step of the reduction with its weight folded into the
# host's Horner combine (red2) against d8104f8 (bins): BN254 G1 2^16-2^24 and BN254 G2
# 2^20 two rounds alternating, BLS12-381 at 2^16 and 2^20 once, profiles, then the G1,
# G2, BLS12-381 and cluster tests on red2.
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
for r in 1 2; do for k in bins red2; do
  [ $(el) -gt 200 ] && break 2
  timeout 60 $G/bin/$k bench --sizes 16,20,22,24 --repeat 7 --ark-max 0 > $R/g1-$k-$r.txt 2>&1; echo "g1 $k $r rc=$? t=$(el)" >> $S
  grep "^2026-" $R/g1-$k-$r.txt | grep -v cluster | sed "s|^|r$r $k |" >> $O/table.txt
  timeout 60 $G/bin/$k bench --curve bn254 --group g2 --sizes 20 --repeat 9 --ark-max 0 > $R/g2-$k-$r.txt 2>&1; echo "g2 $k $r rc=$? t=$(el)" >> $S
  grep "^11-2" $R/g2-$k-$r.txt | sed "s|^|r$r $k |" >> $O/table.txt
done; done
for g in "bls12-381 g1" "bls12-381 g2"; do set -- $g
for k in bins red2; do
  [ $(el) -gt 300 ] && break 2
  timeout 60 $G/bin/$k bench --curve $1 --group $2 --sizes 16,20 --repeat 7 --ark-max 0 > $R/$1-$2-$k.txt 2>&1; echo "grp $1 $2 $k rc=$? t=$(el)" >> $S
  grep "^11-2" $R/$1-$2-$k.txt | sed "s|^|$k |" >> $O/table.txt
done; done
for k in bins red2; do
  [ $(el) -gt 340 ] && break
  timeout 40 $G/bin/$k bench --curve bn254 --group g2 --sizes 20 --repeat 3 --ark-max 0 --profile > $R/prof-g2-$k.txt 2>&1; echo "prof g2 $k rc=$? t=$(el)" >> $S
done
for t in gpu g2 bls12_381 cluster; do
  [ $(el) -gt 460 ] && break
  timeout 60 $G/bin/$t > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el) $(grep 'test result' $R/test-$t.txt)" >> $S
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
grep -h "NVIDIA H200  .*  20 " $R/prof-*.txt | awk '{print $4,$5,$9,$10,$11,$12,$13,$14,$15,$16,$17,$20,$21}'
tr -s " " < $O/table.txt | cut -c1-80
