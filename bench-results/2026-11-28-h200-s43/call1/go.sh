#!/usr/bin/env bash
# Session 43 call 1: the host's core count read once (an MSM read it twice a call
# through available_parallelism, tens of microseconds each) and the one-shot timeline's
# new host events; against main (fa88ffe). BN254 G1 2^14-2^20 before/after, two rounds
# alternating (median of 9); the after build's profile and timeline at 2^14/2^16; the
# other groups before/after at 2^14/2^16 (median of 7).
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2; do
  for b in before after; do
    ok 200 && run g1-$b-$r $b 60 bench --ark-max 0 --sizes 14,16,18,20 --repeat 9
  done
done
ok 240 && run prof-after after 60 bench --ark-max 0 --sizes 14,16 --repeat 9 --profile --timeline 14,16
ok 260 && run prof-before before 60 bench --ark-max 0 --sizes 16 --repeat 9 --profile --timeline 16
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  for b in before after; do
    ok 420 && run $1$2-$b $b 60 bench --ark-max 0 --sizes 14,16 --repeat 7 --curve $1 --group $2
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt $R/prof-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
grep -A40 "timeline of .*, oneshot, 2^16" $R/prof-after.txt | head -32 >> $S
grep -A40 "timeline of .*, device, 2^16" $R/prof-after.txt | head -26 >> $S
grep -A40 "timeline of .*, oneshot, 2^16" $R/prof-before.txt | head -28 >> $S
