#!/usr/bin/env bash
# Session 24 call 4: the candidate (ranks up to 2^12 buckets, 11-bit windows from 2^17
# to 2^19 entries) against main: parity tests, BN254 G1 2^16-2^24, every group at 2^16
# and 2^20, Portable32.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
t0=$(date +%s)
el() { echo $(( $(date +%s)-t0 )); }
for t in gpu portable bls12_381 g2; do
  timeout 120 $G/bin/$t > $R/t-$t.txt 2>&1; echo "test $t rc=$? t=$(el) $(grep 'test result' $R/t-$t.txt)" >> $S
done
for r in 1 2; do for k in main cand; do
  timeout 60 $G/bin/$k bench --sizes 16,17,18,20,22,24 --repeat 7 --ark-max 0 > $R/b-$k-$r.txt 2>&1; echo "b $k $r rc=$? t=$(el)" >> $S
  grep "^2026.*NVIDIA H200 " $R/b-$k-$r.txt | sed "s|^|r$r $k |" >> $O/table.txt
done; done
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do set -- $g
for k in main cand; do
  [ $(el) -gt 360 ] && break 2
  timeout 60 $G/bin/$k bench --curve $1 --group $2 --sizes 16,20 --repeat 5 --ark-max 0 > $R/g-$1-$2-$k.txt 2>&1; echo "g $1 $2 $k rc=$? t=$(el)" >> $S
  grep "^11-2" $R/g-$1-$2-$k.txt | sed "s|^|$k |" >> $O/table.txt
done; done
for k in main cand; do
  [ $(el) -gt 400 ] && break
  timeout 40 $G/bin/$k bench --sizes 16,20 --arith portable32 --repeat 7 --ark-max 0 > $R/p-$k.txt 2>&1; echo "p $k rc=$? t=$(el)" >> $S
  grep "^2026.*NVIDIA H200 " $R/p-$k.txt | sed "s|^|p32 $k |" >> $O/table.txt
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
