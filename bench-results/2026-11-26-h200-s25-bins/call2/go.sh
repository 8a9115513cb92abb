#!/usr/bin/env bash
# Session 25 call 2: the scatter in bins with tiles sorted in workgroup memory (bins) against
# main ea15bd3 (base): BN254 G1 2^16-2^24 two rounds alternating, profiles at 2^20-2^24, BN254 G2 and BLS12-381 G1
# at 2^20 and 2^24, then the G1, G2 and BLS12-381 test binaries on bins.
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
for r in 1 2; do for k in base bins; do
  [ $(el) -gt 200 ] && break 2
  timeout 60 $G/bin/$k bench --sizes 16,20,22,24 --repeat 7 --ark-max 0 > $R/g1-$k-$r.txt 2>&1; echo "g1 $k $r rc=$? t=$(el)" >> $S
  grep "^2026-" $R/g1-$k-$r.txt | sed "s|^|r$r $k |" >> $O/table.txt
done; done
for k in base bins; do
  [ $(el) -gt 260 ] && break
  timeout 60 $G/bin/$k bench --sizes 20,22,24 --repeat 3 --ark-max 0 --profile > $R/prof-$k.txt 2>&1; echo "prof $k rc=$? t=$(el)" >> $S
done
for g in "bn254 g2" "bls12-381 g1"; do set -- $g
for k in base bins; do
  [ $(el) -gt 380 ] && break 2
  timeout 60 $G/bin/$k bench --curve $1 --group $2 --sizes 20,24 --repeat 5 --ark-max 0 > $R/$1-$2-$k.txt 2>&1; echo "grp $1 $2 $k rc=$? t=$(el)" >> $S
  grep "^11-2" $R/$1-$2-$k.txt | sed "s|^|$k |" >> $O/table.txt
done; done
for t in gpu g2 bls12_381; do
  [ $(el) -gt 470 ] && break
  timeout 45 $G/bin/$t > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el) $(grep 'test result' $R/test-$t.txt)" >> $S
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
grep -h -A12 "^device  *mode" $R/prof-*.txt | grep -v cluster | awk '{print $4,$5,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18}'
tr -s " " < $O/table.txt | grep -v cluster | cut -c1-80
