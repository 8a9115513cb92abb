#!/usr/bin/env bash
# Session 24 call 7: the register machine keeping the step before's result (tlast) against
# ffb8800 (cand): BN254 G2, BLS12-381 G1 and G2 at 2^20, BN254 G2 2^22; tests on tlast.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
t0=$(date +%s)
el() { echo $(( $(date +%s)-t0 )); }
for g in "bn254 g2 20,22" "bls12-381 g1 20" "bls12-381 g2 20"; do set -- $g
for r in 1 2; do for k in cand tlast; do
  [ $(el) -gt 115 ] && break 3
  timeout 40 $G/bin/$k bench --curve $1 --group $2 --sizes $3 --repeat 5 --ark-max 0 > /tmp/g.txt 2>&1; echo "g $1 $2 $k $r rc=$? t=$(el)" >> $S
  grep "^11-2" /tmp/g.txt | sed "s|^|r$r $k |" >> $O/table.txt
done; done; done
for t in g2 bls12_381; do
  [ $(el) -gt 145 ] && break
  timeout 30 $G/bin/$t > /tmp/t.txt 2>&1; echo "test $t rc=$? t=$(el) $(grep 'test result' /tmp/t.txt)" >> $S
done
cat $S; awk '{print $1, $2, $4, $8, $9, $10}' $O/table.txt
