#!/usr/bin/env bash
# Session 37 call 2 (one H200; main at 55cd924 + the upload share + mul2-diag.patch):
# BN254 G1 Portable32 with the mixed addition's independent products in interleaved
# pairs (WGPU_MSM_DIAG_MUL2=1: three fq_mul2 sites, each one loop whose body runs both
# products' rounds, instead of six fq_mul loops). Variants: a = main, b = MUL2. Tests
# under b first; arith and MSM rows alternating; Wide64 once; caches kept for SASS.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
C=/tmp/caches; mkdir -p $C
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
dv() { case $1 in a) echo 0;; b) echo 1;; esac; }
run() { # name variant args...
  local name=$1; local v=$2; shift 2
  env WGPU_MSM_DIAG_MUL2=$(dv $v) WGPU_MSM_CACHE_DIR=$C/$v timeout 150 $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
WGPU_MSM_DIAG_MUL2=1 WGPU_MSM_CACHE_DIR=$C/t timeout 200 $G/bin/gpu --test-threads 1 portable32 > $R/test-gpu.txt 2>&1; echo "test gpu rc=$? t=$(el)" >> $S
grep "test result" $R/test-gpu.txt >> $S
for v in a b; do ok 300 && run arith-$v $v arith --threads 1048576 --iters 256; done
for r in 1 2; do
  for v in a b; do ok 420 && run p32-$v-$r $v bench --ark-max 0 --arith portable32 --sizes 16,20,22 --repeat 7 --profile; done
done
ok 480 && run w64 a bench --ark-max 0 --arith wide64 --sizes 16,20,22 --repeat 7
(cd /tmp && tar czf $O/raw.tgz raw && tar czf $O/caches.tgz caches/a caches/b)
for f in $R/arith*.txt; do echo "== $f" >> $S; grep -iE "H200" $f >> $S; done
for f in $R/p32*.txt $R/w64.txt; do grep -E "^(2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' >> $S; done
ls -la $O >> $S
