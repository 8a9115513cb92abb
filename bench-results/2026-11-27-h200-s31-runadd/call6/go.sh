#!/usr/bin/env bash
# Session 31 call 6 (call 5's binary, 32fe5ff's kernels): where else 19-bit windows may
# now win. 2^22 rows of the dear groups at 19 bits against the default 16 (the rule
# starts at 2^24), and BN254 G1 at 2^24 at 18 and 19 bits (lost in v33, before the
# reduction in parts; its written-out formulas never paid for runs from zero).
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
run() { # name args...
  local name=$1; shift
  timeout 150 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  run $1-$2-c16 --curve $1 --group $2 --sizes 22 --repeat 5 --profile
  run $1-$2-c19 --curve $1 --group $2 --sizes 22 --repeat 5 --profile --window 19
done
run g1-c16 --sizes 24 --repeat 5 --profile
run g1-c19 --sizes 24 --repeat 5 --profile --window 19
run g1-c18 --sizes 24 --repeat 5 --profile --window 18
run g1-c16b --sizes 24 --repeat 5
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-200 >> $S; done
