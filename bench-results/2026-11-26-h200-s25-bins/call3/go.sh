#!/usr/bin/env bash
# Session 25 call 3: tiles of 4096 for the scatter in bins (b16, 20 KiB of workgroup
# memory) against tiles of 2048 (bins, d8104f8): BN254 G1 2^20-2^24 two rounds
# alternating, a profile of b16, every other group at 2^20 and 2^24 on both, Portable32.
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
for r in 1 2; do for k in bins b16; do
  [ $(el) -gt 150 ] && break 2
  timeout 60 $G/bin/$k bench --sizes 20,22,24 --repeat 7 --ark-max 0 > $R/g1-$k-$r.txt 2>&1; echo "g1 $k $r rc=$? t=$(el)" >> $S
  grep "^2026-" $R/g1-$k-$r.txt | grep -v cluster | sed "s|^|r$r $k |" >> $O/table.txt
done; done
timeout 60 $G/bin/b16 bench --sizes 24 --repeat 3 --ark-max 0 --profile > $R/prof-b16.txt 2>&1; echo "prof b16 rc=$? t=$(el)" >> $S
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do set -- $g
for k in bins b16; do
  [ $(el) -gt 420 ] && break 2
  timeout 70 $G/bin/$k bench --curve $1 --group $2 --sizes 20,24 --repeat 7 --ark-max 0 > $R/$1-$2-$k.txt 2>&1; echo "grp $1 $2 $k rc=$? t=$(el)" >> $S
  grep "^11-2" $R/$1-$2-$k.txt | sed "s|^|$k |" >> $O/table.txt
done; done
[ $(el) -lt 450 ] && { timeout 60 $G/bin/bins bench --sizes 16,20,22 --repeat 7 --ark-max 0 --arith portable32 > $R/p32-bins.txt 2>&1; echo "p32 rc=$? t=$(el)" >> $S; grep "^2026-" $R/p32-bins.txt | grep -v cluster | sed "s|^|p32 bins |" >> $O/table.txt; }
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
grep -h "NVIDIA H200  .*  24 " $R/prof-*.txt | awk '{print $4,$5,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18}'
tr -s " " < $O/table.txt | cut -c1-80
