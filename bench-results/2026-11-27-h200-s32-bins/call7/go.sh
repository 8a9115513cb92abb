#!/usr/bin/env bash
# Session 32 call 7 (call 6's binary, 0227c32): with nested bins, do 19-bit windows win at
# 2^23 for the groups on the register machine? (The rule takes them from 2^24; at 2^22
# they lost with cursors, v41 call 6.) Default (16 bits) against --window 19.
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
run() { # name env args...
  local name=$1; local e=$2; shift 2
  env $e timeout 150 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for g in "bn254 g2" "bls12-381 g1" "bls12-381 g2"; do
  set -- $g
  run $1-$2-c16 X=1 --curve $1 --group $2 --sizes 23 --repeat 5 --profile
  run $1-$2-c19 X=1 --curve $1 --group $2 --sizes 23 --repeat 5 --profile --window 19
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-200 >> $S; done
