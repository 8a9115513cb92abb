#!/usr/bin/env bash
# Session 24 call 5: profiles of ffb8800 at 2^16 and 2^20, Wide64 and Portable32.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
timeout 60 $G/bin/cand bench --sizes 16,20 --repeat 5 --ark-max 0 --profile --timeline 16 > $O/prof-w64.txt 2>&1; echo "w64 rc=$?" >> $O/summary.txt
timeout 60 $G/bin/cand bench --sizes 16,20 --repeat 5 --ark-max 0 --arith portable32 --profile > $O/prof-p32.txt 2>&1; echo "p32 rc=$?" >> $O/summary.txt
cat $O/summary.txt; grep -h -A7 "^device  *mode" $O/prof-*.txt | grep -v cluster
