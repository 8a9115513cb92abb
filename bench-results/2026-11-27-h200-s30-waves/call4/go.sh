#!/usr/bin/env bash
# Session 30 call 4 (main at 3769abb): 19-bit GLV windows for all-resident 2^24 MSMs
# (--window 19) against the default 16 now that passes run in whole waves; and
# Portable32 against Wide64 (BN254 G1, issue 29), alternating.
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
for r in 1 2; do
  run g2-c16-$r --curve bn254 --group g2 --sizes 24 --repeat 5 --profile
  run g2-c19-$r --curve bn254 --group g2 --sizes 24 --repeat 5 --profile --window 19
  run bls1-c16-$r --curve bls12-381 --group g1 --sizes 24 --repeat 5 --profile
  run bls1-c19-$r --curve bls12-381 --group g1 --sizes 24 --repeat 5 --profile --window 19
done
run bls2-c16 --curve bls12-381 --group g2 --sizes 24 --repeat 5 --profile
run bls2-c19 --curve bls12-381 --group g2 --sizes 24 --repeat 5 --profile --window 19
for r in 1 2; do
  [ $(el) -lt 480 ] || break
  run w64-$r --arith wide64 --sizes 16,20,22 --repeat 7
  run p32-$r --arith portable32 --sizes 16,20,22 --repeat 7
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*(NVIDIA|arkworks).* (cpu|oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-130 >> $S; done
for f in $R/*-c1*.txt; do grep -E "^#0 NVIDIA " $f | awk -v k=$(basename $f .txt) '{print k, $4, $5, "dec", $9, "scat", $11, "acc", $12, "fold", $13, "coll", $14, "red", $15, "span", $17}' >> $S; done
