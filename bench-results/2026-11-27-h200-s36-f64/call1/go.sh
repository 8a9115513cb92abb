#!/usr/bin/env bash
# Session 36 call 1: f64_24_diag (examples/f64_24_diag.rs while it ran): a BN254 Fq
# Montgomery multiply of FP64 operations only (eleven signed 24-bit digits), checked
# against arkworks on the GPU, timed alone and beside the Wide64 integer multiply, at
# 1M and 256K threads; pipeline caches kept for the SASS.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
mkdir -p /tmp/pc
F64_DIAG_CACHES=/tmp/pc timeout 200 $G/bin/f64_24_diag 1048576 1024 > $O/t1m.txt 2>&1; echo "1M rc=$?" >> $S
timeout 120 $G/bin/f64_24_diag 262144 1024 > $O/t256k.txt 2>&1; echo "256K rc=$?" >> $S
timeout 120 $G/bin/f64_24_diag 1048576 1024 > $O/t1m-b.txt 2>&1; echo "1M second rc=$?" >> $S
(cd /tmp && tar czf $O/pc.tgz pc)
grep -E "wrong|emulation" $O/t1m.txt >> $S
for f in t1m t256k t1m-b; do echo "== $f" >> $S; grep -A9 "dependent multiplies" $O/$f.txt >> $S; done
