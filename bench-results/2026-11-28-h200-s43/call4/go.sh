#!/usr/bin/env bash
# Session 43 call 4: the merged build's tests; the one-shot's first chunk recorded whole
# before its first submission, its scalars submitted as soon as they are written while
# the upload threads write its bases (EBC), against BC (call 2: core count read once,
# readback polled at once, one Horner's rule) and main (fa88ffe). BN254 G1 before/EBC at
# 2^14-2^24 (one round, median of 9); BC/EBC/before at 2^14/2^16 (three rounds, median
# of 9); EBC's profile and timeline at 2^16/2^20; Portable32 before/EBC at 2^16/2^20
# (median of 7); the other groups before/EBC at 2^14/2^16/2^20 (median of 7).
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
for t in gpu bls12_381 g2 embed copied_uploads workgroup_memory portable; do
  ok 200 && { WGPU_MSM_CACHE_DIR=/tmp/cache-EBC timeout 120 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked" $R/test-$t.txt | head -5 >> $S
done
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1; do
  for b in before EBC; do
    ok 270 && run g1-$b-$r $b 60 bench --ark-max 0 --sizes 14,16,18,20,22,24 --repeat 9
  done
done
for r in 1 2 3; do
  for b in BC EBC before; do
    ok 350 && run small-$b-$r $b 40 bench --ark-max 0 --sizes 14,16 --repeat 9
  done
done
ok 370 && run prof-EBC EBC 60 bench --ark-max 0 --sizes 16,20 --repeat 9 --profile --timeline 16,20
for b in before EBC; do
  ok 420 && run p32-$b $b 40 bench --ark-max 0 --sizes 16,20 --repeat 7 --arith portable32
done
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  for b in before EBC; do
    ok 520 && run $1$2-$b $b 60 bench --ark-max 0 --sizes 14,16,20 --repeat 7 --curve $1 --group $2
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt $R/small-*.txt $R/prof-*.txt $R/p32-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
grep -A40 "timeline of .*, oneshot, 2^16" $R/prof-EBC.txt | head -32 >> $S
grep -E "^#0 NVIDIA.* (oneshot|resident|device) +(16|20) " $R/prof-EBC.txt | cut -c1-230 >> $S
