#!/usr/bin/env bash
# Session 26 call 3 (main, bf5883f; knobs only): BN254 G1 2^16 and 2^17 at 11 (the
# rule), 12 and 13-bit windows; BN254 G2 2^20 with 2^10, 2^11 (default) and 2^12
# reduction segments a window; two rounds alternating; profiles of both.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
t0=$(date +%s)
el() { echo $(( $(date +%s)-t0 )); }
B=$G/bin/pf
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
for r in 1 2; do
  for c in 11 12 13; do
    [ $(el) -gt 200 ] && break 2
    timeout 40 $B bench --sizes 16,17 --window $c --repeat 15 --ark-max 0 > $R/g1-w$c-$r.txt 2>&1; echo "g1 w$c $r rc=$? t=$(el)" >> $S
    grep "^2026-" $R/g1-w$c-$r.txt | grep -v cluster | sed "s|^|r$r w$c |" >> $O/table.txt
  done
  for s in 10 11 12; do
    [ $(el) -gt 260 ] && break 2
    WGPU_MSM_REDUCE_SEGS_LOG2=$s timeout 60 $B bench --curve bn254 --group g2 --sizes 20 --repeat 9 --ark-max 0 > $R/g2-s$s-$r.txt 2>&1; echo "g2 s$s $r rc=$? t=$(el)" >> $S
    grep "^11-2" $R/g2-s$s-$r.txt | sed "s|^|r$r s$s |" >> $O/table.txt
  done
done
for c in 11 13; do
  [ $(el) -gt 330 ] && break
  timeout 40 $B bench --sizes 16 --window $c --repeat 3 --ark-max 0 --profile > $R/prof-g1-w$c.txt 2>&1; echo "prof g1 w$c rc=$? t=$(el)" >> $S
done
for s in 11 12; do
  [ $(el) -gt 380 ] && break
  WGPU_MSM_REDUCE_SEGS_LOG2=$s timeout 40 $B bench --curve bn254 --group g2 --sizes 20 --repeat 3 --ark-max 0 --profile > $R/prof-g2-s$s.txt 2>&1; echo "prof g2 s$s rc=$? t=$(el)" >> $S
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
for f in $R/prof-*.txt; do grep "NVIDIA H200  .* \(device\|oneshot\)  *\(16\|20\) " $f | awk -v k=$(basename $f .txt) '{print k,$3,$4,$9,$10,$11,$12,$13,$14,$15,$16,$17,$21}'; done
tr -s " " < $O/table.txt | cut -c1-80
