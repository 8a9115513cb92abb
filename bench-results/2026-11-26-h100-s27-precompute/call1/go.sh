#!/usr/bin/env bash
# Session 27 call 1: bases precomputed for one window width (Layout::Shifted). BN254 G1
# 2^20/2^22/2^24 without and with --precompute 16/19/22 (verified against the CUDA
# vectors), then the test binaries that run MSMs (precomputed, gpu, bls12_381, g2).
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
B=$G/bin/wgpu-msm
T0=$(date +%s)
left() { echo $(( 540 - ($(date +%s) - T0) )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
timeout 60 $G/bin/scratch_pre table --nocapture > $R/scratch.txt 2>&1; echo "scratch rc=$?" >> $S; grep "i=" $R/scratch.txt >> $S
for p in none 19 22 16; do
  a=""; [ $p != none ] && a="--precompute $p"
  timeout 100 $B bench --sizes 20,22,24 --repeat 5 --ark-max 0 $a > $R/bench-$p.txt 2>&1; echo "bench $p rc=$? t=$(( $(date +%s) - T0 ))" >> $S
done
timeout 60 $B bench --sizes 24 --repeat 3 --ark-max 0 --precompute 19 --profile > $R/profile-19.txt 2>&1; echo "profile 19 rc=$? t=$(( $(date +%s) - T0 ))" >> $S
for t in precomputed gpu bls12_381 g2; do
  l=$(left); [ $l -lt 30 ] && { echo "skip $t" >> $S; continue; }
  timeout $(( l < 150 ? l : 150 )) $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - T0 ))" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
for f in $R/bench-*.txt $R/profile-*.txt; do grep "NVIDIA H200\|NVIDIA H100" $f | grep -v cluster | awk -v k=$(basename $f .txt) '{print k,$0}' | cut -c1-150; done
