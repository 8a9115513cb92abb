#!/usr/bin/env bash
# Session 34 call 3: examples/pipe_diag.rs again (the loop bound read once), with each
# kernel's pipeline cache kept for its SASS.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
mkdir -p $O/pc
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
for t in 1048576 262144; do
  PIPE_DIAG_CACHES=$O/pc timeout 120 $G/bin/pipe_diag $t 16384 >> $S 2>&1; echo "rc=$?" >> $S
done
