#!/usr/bin/env bash
# Session 27 call 2: all-resident MSMs cut into passes of 2^k points (--chunk k),
# to test whether smaller passes accumulate faster (their bases' footprint in L2).
# Device rows only matter; every row is verified (CUDA vectors / arkworks).
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
B=$G/bin/wgpu-msm
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
run() { # name args...
  local name=$1; shift
  timeout 90 $B bench --repeat 5 --ark-max 0 "$@" > $R/$name.txt 2>&1; echo "$name rc=$? t=$(( $(date +%s) - T0 ))" >> $S
}
for r in 1 2; do
  for k in 18 20; do run g2-20-c$k-$r --curve bn254 --group g2 --sizes 20 --chunk $k; done
  run g2-20-c19-$r --curve bn254 --group g2 --sizes 20 --chunk 19
  run g2-20-c17-$r --curve bn254 --group g2 --sizes 20 --chunk 17
done
for k in 20 22; do run g2-22-c$k --curve bn254 --group g2 --sizes 22 --chunk $k; done
for k in 18 20; do run bls-20-c$k --curve bls12-381 --group g1 --sizes 20 --chunk $k; done
for k in 18 19 20; do run g1-20-c$k --sizes 20 --chunk $k; done
for k in 21 22 24; do run g1-24-c$k --sizes 24 --chunk $k; done
run g1-24-c22-prof --sizes 24 --chunk 22 --profile --repeat 3
run g2-20-c18-prof --curve bn254 --group g2 --sizes 20 --chunk 18 --profile --repeat 3
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
for f in $R/*.txt; do grep " device " $f | grep -v cluster | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-170; done
