#!/usr/bin/env bash
# Session 34 call 2: examples/pipe_diag.rs (eight independent chains per kind; mixed
# kernels run two kinds' chains in one loop body) at two thread counts.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
for t in 524288 1048576 131072; do
  timeout 120 $G/bin/pipe_diag $t 16384 >> $S 2>&1; echo "rc=$?" >> $S
done
PIPE_DIAG_PRINT=1 timeout 5 $G/bin/pipe_diag 64 1 2>/dev/null | head -400 > $O/kernels.wgsl
