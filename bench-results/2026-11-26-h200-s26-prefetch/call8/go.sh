#!/usr/bin/env bash
# Session 26 call 8 (main at e75de34; knobs only): accumulation threads 2^17 (the rule
# for GLV passes up to 2^21 points) against 2^18 for BN254 G2, BLS12-381 G1 and G2 at
# 2^20, two rounds alternating; BN254 G1 2^20 once each.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
t0=$(date +%s)
el() { echo $(( $(date +%s)-t0 )); }
B=$G/bin/three
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
for r in 1 2; do for t in 17 18; do
  for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do set -- $g
    [ $(el) -gt 300 ] && break 3
    WGPU_MSM_ACCUMULATE_THREADS_LOG2=$t timeout 50 $B bench --curve $1 --group $2 --sizes 20 --repeat 9 --ark-max 0 > $R/$1-$2-t$t-$r.txt 2>&1; echo "$1 $2 t$t $r rc=$? t=$(el)" >> $S
    grep "^11-2" $R/$1-$2-t$t-$r.txt | sed "s|^|r$r t$t |" >> $O/table.txt
  done
done; done
for t in 17 18; do
  [ $(el) -gt 360 ] && break
  WGPU_MSM_ACCUMULATE_THREADS_LOG2=$t timeout 40 $B bench --sizes 20 --repeat 9 --ark-max 0 > $R/g1-t$t.txt 2>&1; echo "g1 t$t rc=$? t=$(el)" >> $S
  grep "^2026-" $R/g1-t$t.txt | grep -v cluster | sed "s|^|t$t |" >> $O/table.txt
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
tr -s " " < $O/table.txt | cut -c1-80
