#!/usr/bin/env bash
# Session 35 call 4 (ksmall-diag.patch plus `kara`, ksmall-kara.patch): the small-limb
# fq_mul with its product by 1 / 2 / 3 levels of Karatsuba (WGPU_MSM_DIAG_KSMALL=5 / 6 /
# 7; 2 = call 1's one-level form), the reduction after it. Portable32 tests under 6,
# then arith for 0 2 5 6 7 and BN254 G1 Portable32 MSMs for 0 5 6 7.
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
run() { # name variant args...
  local name=$1; local v=$2; shift 2
  env WGPU_MSM_DIAG_KSMALL=$v WGPU_MSM_CACHE_DIR=$C/v$v timeout 150 $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
WGPU_MSM_DIAG_KSMALL=6 WGPU_MSM_CACHE_DIR=$C/t6 timeout 200 $G/bin/gpu --test-threads 1 portable32 > $R/test-gpu.txt 2>&1; echo "test gpu rc=$? t=$(el)" >> $S
grep "test result" $R/test-gpu.txt >> $S
for v in 0 2 5 6 7; do run arith-v$v $v arith --threads 1048576 --iters 256; done
for v in 0 5 6 7 0; do run p32-v$v $v bench --ark-max 0 --arith portable32 --sizes 20,22 --repeat 7 --profile; done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/arith*.txt; do echo "== $f" >> $S; grep -iE "H200" $f >> $S; done
for f in $R/p32*.txt; do grep -E "^(2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' >> $S; done
