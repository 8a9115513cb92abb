#!/usr/bin/env bash
# Session 26 call 6 (main, b5ae188 = bf5883f's kernels): issue 26's table (every group
# at 2^20 and 2^24, two rounds) and issue 29's (Portable32 against Wide64 at 2^16-2^22,
# two rounds alternating, JSON rows).
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
t0=$(date +%s)
el() { echo $(( $(date +%s)-t0 )); }
B=$G/bin/main
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
for r in 1 2; do
  [ $(el) -gt 330 ] && break
  timeout 60 $B bench --sizes 20,24 --repeat 7 --ark-max 0 > $R/bn254-g1-$r.txt 2>&1; echo "bn254 g1 $r rc=$? t=$(el)" >> $S
  grep "^2026-" $R/bn254-g1-$r.txt | grep -v cluster | sed "s|^|r$r bn254-g1 |" >> $O/table.txt
  for g in "bls12-381 g1" "bn254 g2" "bls12-381 g2"; do set -- $g
    timeout 80 $B bench --curve $1 --group $2 --sizes 20,24 --repeat 7 --ark-max 0 > $R/$1-$2-$r.txt 2>&1; echo "$1 $2 $r rc=$? t=$(el)" >> $S
    grep "^11-2" $R/$1-$2-$r.txt | sed "s|^|r$r |" >> $O/table.txt
  done
done
for r in 1 2; do for a in wide64 portable32; do
  [ $(el) -gt 480 ] && break 2
  timeout 60 $B bench --arith $a --sizes 16,20,22 --repeat 7 --ark-max 0 --json $R/p-$a-$r.json > $R/p-$a-$r.txt 2>&1; echo "arith $a $r rc=$? t=$(el)" >> $S
  grep "^2026-" $R/p-$a-$r.txt | grep -v cluster | sed "s|^|r$r |" >> $O/table.txt
done; done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
tr -s " " < $O/table.txt | cut -c1-80
