#!/usr/bin/env bash
# Session 36 call 2: f64_24_diag for BLS12-381 Fq (sixteen signed 24-bit digits in f64,
# R = 2^384) against the crate's Wide64 BLS12-381 multiply (fourteen 29-bit limbs), and
# BN254 again; pipeline caches of the BLS12-381 kernels kept for the SASS.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
mkdir -p /tmp/pc
F64_DIAG_CURVE=bls12-381 F64_DIAG_CACHES=/tmp/pc timeout 200 $G/bin/f64_24_diag 1048576 512 > $O/bls-1m.txt 2>&1; echo "bls 1M rc=$?" >> $S
F64_DIAG_CURVE=bls12-381 timeout 120 $G/bin/f64_24_diag 262144 1024 > $O/bls-256k.txt 2>&1; echo "bls 256K rc=$?" >> $S
timeout 120 $G/bin/f64_24_diag 1048576 1024 > $O/bn-1m.txt 2>&1; echo "bn254 1M rc=$?" >> $S
(cd /tmp && tar czf $O/pc.tgz pc)
for f in bls-1m bls-256k bn-1m; do echo "== $f" >> $S; grep -E "wrong|emulation" $O/$f.txt >> $S; grep -A9 "dependent multiplies" $O/$f.txt >> $S; done
