#!/usr/bin/env bash
# Session 26 call 7: the reduction's three window sums (three: no doubling rounds on the
# device, the weights per and K per to the host's Horner combine) against main (b5ae188):
# BN254 G1 2^16-2^24 and BN254 G2 2^20 two rounds alternating, BLS12-381 G1 and G2 2^20
# one round, BN254 G2 2^24; profiles; the tests on three.
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
for r in 1 2; do for k in main three; do
  [ $(el) -gt 200 ] && break 2
  timeout 60 $G/bin/$k bench --sizes 16,20,22,24 --repeat 7 --ark-max 0 > $R/g1-$k-$r.txt 2>&1; echo "g1 $k $r rc=$? t=$(el)" >> $S
  grep "^2026-" $R/g1-$k-$r.txt | grep -v cluster | sed "s|^|r$r $k |" >> $O/table.txt
  timeout 60 $G/bin/$k bench --curve bn254 --group g2 --sizes 20 --repeat 9 --ark-max 0 > $R/g2-$k-$r.txt 2>&1; echo "g2 $k $r rc=$? t=$(el)" >> $S
  grep "^11-2" $R/g2-$k-$r.txt | sed "s|^|r$r $k |" >> $O/table.txt
done; done
for k in main three; do
  [ $(el) -gt 290 ] && break
  timeout 50 $G/bin/$k bench --curve bls12-381 --group g1 --sizes 16,20 --repeat 7 --ark-max 0 > $R/b1-$k.txt 2>&1; echo "b1 $k rc=$? t=$(el)" >> $S
  grep "^11-2" $R/b1-$k.txt | sed "s|^|$k |" >> $O/table.txt
  timeout 50 $G/bin/$k bench --curve bls12-381 --group g2 --sizes 20 --repeat 7 --ark-max 0 > $R/b2-$k.txt 2>&1; echo "b2 $k rc=$? t=$(el)" >> $S
  grep "^11-2" $R/b2-$k.txt | sed "s|^|$k |" >> $O/table.txt
done
for k in main three; do
  [ $(el) -gt 380 ] && break
  timeout 30 $G/bin/$k bench --sizes 16,20 --repeat 3 --ark-max 0 --profile > $R/prof-g1-$k.txt 2>&1
  timeout 30 $G/bin/$k bench --curve bn254 --group g2 --sizes 20 --repeat 3 --ark-max 0 --profile > $R/prof-g2-$k.txt 2>&1
  timeout 30 $G/bin/$k bench --curve bls12-381 --group g2 --sizes 20 --repeat 3 --ark-max 0 --profile > $R/prof-b2-$k.txt 2>&1; echo "prof $k t=$(el)" >> $S
done
for t in g2 bls12_381 workgroup_memory cluster gpu; do
  [ $(el) -gt 480 ] && break
  timeout 75 $G/bin/$t > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el) $(grep 'test result' $R/test-$t.txt)" >> $S
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
for f in $R/prof-*.txt; do grep "NVIDIA H200  .* device  *\(16\|20\) " $f | awk -v k=$(basename $f .txt) '{print k,$4,$9,$10,$11,$12,$13,$14,$15,$16,$17,$20}'; done
tr -s " " < $O/table.txt | cut -c1-80
