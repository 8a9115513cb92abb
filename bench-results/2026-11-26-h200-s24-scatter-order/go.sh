#!/usr/bin/env bash
# Session 24 call 6: the scatter a thread per (window, entry), window-major (wmaj), against
# ffb8800's thread per entry over every window (cand).
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
t0=$(date +%s)
el() { echo $(( $(date +%s)-t0 )); }
for r in 1 2; do for k in cand wmaj; do
  timeout 50 $G/bin/$k bench --sizes 16,20,22,24 --repeat 7 --ark-max 0 > /tmp/b.txt 2>&1; echo "b $k $r rc=$? t=$(el)" >> $S
  grep "^2026.*NVIDIA H200 " /tmp/b.txt | sed "s|^|r$r $k |" >> $O/table.txt
done; done
for k in cand wmaj; do
  timeout 40 $G/bin/$k bench --sizes 22,24 --repeat 3 --ark-max 0 --profile > $O/prof-$k.txt 2>&1; echo "p $k rc=$? t=$(el)" >> $S
done
[ $(el) -lt 190 ] && { timeout 80 $G/bin/gpu > /tmp/t.txt 2>&1; echo "test gpu rc=$? t=$(el) $(grep 'test result' /tmp/t.txt)" >> $S; }
cat $S; grep -h -A4 "^device  *mode" $O/prof-*.txt | grep -v cluster
