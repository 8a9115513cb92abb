#!/usr/bin/env bash
# Session 30 call 6 (main at the timeline fix): per-pass timelines of 2^24 MSMs, to see
# where the all-resident accumulation loses to the one-shot's and resident's.
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
run g2-c16 --curve bn254 --group g2 --sizes 24 --repeat 3 --profile --timeline 24
run g2-c19 --curve bn254 --group g2 --sizes 24 --repeat 3 --profile --timeline 24 --window 19
run bls1 --curve bls12-381 --group g1 --sizes 24 --repeat 3 --profile --timeline 24
run g1 --sizes 24 --repeat 3 --profile --timeline 24
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do echo "== $f" >> $S; grep -E "^timeline|device accumulate|host   fill" $f | cut -c1-80 >> $S; done
