#!/usr/bin/env bash
# Session 35 call 3 (the diagnostic build of calls 1-2, ksmall-diag.patch): compiles
# each variant's Portable32 kernels once (BN254 G1 2^16, G2 2^12) into its own pipeline
# cache and returns the caches, for their SASS (registers, local-memory traffic, size).
# Variants "KSMALL/G1TAPE": a 0/0 (main), b 0/1, c 3/1, e 3/0, f 2/0.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
C=/tmp/caches; mkdir -p $C
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ks() { case $1 in a|b) echo 0;; c|e) echo 3;; f) echo 2;; esac; }
gt() { case $1 in b|c) echo 1;; *) echo 0;; esac; }
for v in a b c e f; do
  env WGPU_MSM_DIAG_KSMALL=$(ks $v) WGPU_MSM_DIAG_G1TAPE=$(gt $v) WGPU_MSM_CACHE_DIR=$C/$v timeout 100 $G/bin/wgpu-msm bench --ark-max 0 --arith portable32 --sizes 16 --repeat 3 > $C/$v.txt 2>&1
  echo "g1 $v rc=$? t=$(el)" >> $S
  env WGPU_MSM_DIAG_KSMALL=$(ks $v) WGPU_MSM_DIAG_G1TAPE=$(gt $v) WGPU_MSM_CACHE_DIR=$C/g2$v timeout 100 $G/bin/wgpu-msm bench --ark-max 0 --arith portable32 --curve bn254 --group g2 --sizes 12 --repeat 3 > $C/g2$v.txt 2>&1
  echo "g2 $v rc=$? t=$(el)" >> $S
done
ls -la $C/* >> $S
(cd /tmp && tar czf $O/caches.tgz caches)
