#!/usr/bin/env bash
# Session 34 call 5: examples/pipe_diag.rs with PIPE_DIAG_FQ: the Wide64 Fq multiply in
# a dependent chain, with k independent FP64 fma (or ALU) chain steps beside each
# multiply; k = 0 is the multiply alone.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
for t in 262144 1048576; do
  PIPE_DIAG_FQ=1 timeout 200 $G/bin/pipe_diag $t 1024 >> $S 2>&1; echo "rc=$?" >> $S
done
