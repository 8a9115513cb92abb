#!/usr/bin/env bash
# Session 47 call 5: the driver's compiled kernels of M, T (touch.patch) and H
# (hoist.patch), each into its own pipeline cache (BN254 G1 2^16, Wide64), returned for
# their SASS (registers, local-memory traffic) read here with nvdisasm.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
C=/tmp/caches; mkdir -p $C
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
for v in M T H; do
  WGPU_MSM_CACHE_DIR=$C/$v timeout 120 $G/bin/wgpu-msm-$v bench --ark-max 0 --sizes 16 --repeat 1 > $C/$v.txt 2>&1
  echo "$v rc=$? t=$(el)" >> $S
done
ls -la $C/* >> $S
(cd /tmp && tar czf $O/caches.tgz caches)
