#!/usr/bin/env bash
# Session 35 call 5 (ksmall-kara.patch plus the WGPU_MSM_DIAG_PAIR switch, pair.wgsl):
# BN254 G1's mixed addition with its products in pairs, each pair one loop of two
# iterations around one multiply site (three fq_mul sites and one fq_sqr site instead of
# six and two), with main's multiply (KSMALL=0) or the two-level Karatsuba one (6).
# Variants "KSMALL/PAIR": a 0/0, b 0/1, c 6/1, d 5/1. Tests under c first; caches of
# a and c kept for their SASS.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
C=/tmp/caches; mkdir -p $C
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
export WGPU_MSM_DIAG_PAIR_FILE=$G/pair.wgsl
ks() { case $1 in a|b) echo 0;; c) echo 6;; d) echo 5;; esac; }
pr() { case $1 in a) echo 0;; *) echo 1;; esac; }
run() { # name variant args...
  local name=$1; local v=$2; shift 2
  env WGPU_MSM_DIAG_KSMALL=$(ks $v) WGPU_MSM_DIAG_PAIR=$(pr $v) WGPU_MSM_CACHE_DIR=$C/$v timeout 150 $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
WGPU_MSM_DIAG_KSMALL=6 WGPU_MSM_DIAG_PAIR=1 WGPU_MSM_CACHE_DIR=$C/t timeout 200 $G/bin/gpu --test-threads 1 > $R/test-gpu.txt 2>&1; echo "test gpu rc=$? t=$(el)" >> $S
grep "test result" $R/test-gpu.txt >> $S
for r in 1 2; do
  for v in a b c d; do run p32-$v-$r $v bench --ark-max 0 --arith portable32 --sizes 16,20,22 --repeat 7 --profile; done
done
for v in a b; do run w64-$v $v bench --ark-max 0 --arith wide64 --sizes 20,22 --repeat 7; done
(cd /tmp && tar czf $O/raw.tgz raw && tar czf $O/caches.tgz caches/a caches/c)
for f in $R/p32*.txt $R/w64*.txt; do grep -E "^(2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; done
for f in $R/p32*-1.txt; do grep -E "^#0 NVIDIA H200 +(device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' >> $S; done
