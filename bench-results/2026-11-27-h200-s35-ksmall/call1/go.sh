#!/usr/bin/env bash
# Session 35 call 1 (diagnostic build over afdf0a8): Portable32's small-limb multiply
# with its product by one level of Karatsuba (300 limb products instead of 400), the
# reduction's rounds after it. WGPU_MSM_DIAG_KSMALL: 0 = main's multiply, 1 = fq_mul and
# fq_mul_sub Karatsuba, 2 = fq_mul only. Tests of the Portable32 path under variant 1,
# then arith and MSM rows of each variant alternating.
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
WGPU_MSM_DIAG_KSMALL=1 WGPU_MSM_CACHE_DIR=$C/t1 timeout 200 $G/bin/gpu --test-threads 1 portable32 > $R/test-gpu.txt 2>&1; echo "test gpu rc=$? t=$(el)" >> $S
grep "test result" $R/test-gpu.txt >> $S
WGPU_MSM_DIAG_KSMALL=1 WGPU_MSM_CACHE_DIR=$C/t1 timeout 150 $G/bin/g2 --include-ignored --test-threads 1 > $R/test-g2.txt 2>&1; echo "test g2 rc=$? t=$(el)" >> $S
grep "test result" $R/test-g2.txt >> $S
for v in 0 1 2; do run arith-v$v $v arith --threads 1048576 --iters 256; done
for r in 1 2; do
  for v in 0 1 2; do
    run p32-v$v-$r $v bench --ark-max 0 --arith portable32 --sizes 16,20,22 --repeat 7 --profile
  done
done
run w64 0 bench --ark-max 0 --arith wide64 --sizes 16,20,22 --repeat 7
for v in 0 1; do run g2p32-v$v $v bench --ark-max 0 --arith portable32 --curve bn254 --group g2 --sizes 20 --repeat 5; done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/arith*.txt; do echo "== $f" >> $S; grep -iE "H200" $f >> $S; done
for f in $R/p32*.txt $R/w64.txt $R/g2p32*.txt; do grep -E "^(2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' >> $S; done
