#!/usr/bin/env bash
# Session 26 call 4 (diagnostic): the reduce stage's three kernels apart. DIAG_REDUCE=1
# runs only the thread loop (`reduce`), 2 adds `reduce_groups`, 3 is main (all three);
# results of 1 and 2 are wrong by design. Profiles of BN254 G1 2^16 and 2^20, BN254 G2
# 2^20, BLS12-381 G1 and G2 2^20.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
t0=$(date +%s)
el() { echo $(( $(date +%s)-t0 )); }
B=$G/bin/diag
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
for r in 1 2; do
for d in 1 2 3; do
  [ $(el) -gt 300 ] && break 2
  DIAG_REDUCE=$d timeout 40 $B bench --sizes 16,20 --repeat 3 --ark-max 0 --profile > $R/g1-d$d-$r.txt 2>&1; echo "g1 d$d rc=$? t=$(el)" >> $S
  for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do set -- $g
    DIAG_REDUCE=$d timeout 60 $B bench --curve $1 --group $2 --sizes 20 --repeat 3 --ark-max 0 --profile > $R/$1-$2-d$d-$r.txt 2>&1; echo "$1 $2 d$d rc=$? t=$(el)" >> $S
  done
done
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
for f in $R/*.txt; do grep "NVIDIA H200  .* device  *\(16\|20\) " $f | awk -v k=$(basename $f .txt) '{print k,$4,$9,$10,$11,$12,$13,$14,$15,$16,$17}'; done
