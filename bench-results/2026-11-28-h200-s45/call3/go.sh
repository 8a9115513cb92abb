#!/usr/bin/env bash
# Session 45 call 3: 22-bit GLV windows for BN254 G1 from 2^24 points and reduction walks
# keeping 2^14 segments a window (N) against main 33f5285; tests gpu and bls12_381 with
# N; BN254 G1 2^20-2^24, main / N alternating, two rounds (median of 7), profiles; the
# walk's segment cap at 6 and 8 (N's rule: 7) at 2^24; 2^26 under 1 GiB with N.
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
run() { # name bin limit args... (env passes through)
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in gpu bls12_381; do
  ok 150 && { WGPU_MSM_CACHE_DIR=/tmp/cache-N timeout 120 $G/bin/$t --test-threads 1 --nocapture > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked|22-bit" $R/test-$t.txt | head -5 >> $S
done
for r in 1 2; do
  for b in main N; do
    ok 330 && run g1-$b-$r $b 60 bench --ark-max 0 --sizes 20,22,23,24 --repeat 7 --warmup-ms 300 --profile --strategy even
  done
done
for c in 6 8; do
  export WGPU_MSM_DIAG_SEG_CAP=$c; ok 400 && run g1-Nc$c-1 N 40 bench --ark-max 0 --sizes 24 --repeat 7 --warmup-ms 300 --profile --strategy even
done
unset WGPU_MSM_DIAG_SEG_CAP
ok 420 && run b26-N-1 N 100 bench --ark-max 0 --sizes 26 --repeat 5 --budget 1GiB --strategy even
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt $R/b26-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device) +2[0-4] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
