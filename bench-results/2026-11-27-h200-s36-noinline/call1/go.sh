#!/usr/bin/env bash
# Session 36, one H200: noinline.patch over 1f57be8 (WGPU_MSM_DIAG_NOINLINE=names: every
# shader module goes to the driver as naga's SPIR-V through PASSTHROUGH_SHADERS, with the
# named functions' OpFunction control set to DontInline). Variants: m = main path (no
# switch), p = passthrough with nothing marked, a = fq_mul,fq_mul_sub, b = a + fq_sqr.
# Does NVIDIA keep the multiply as one called copy (CALL in the SASS), and what does the
# MSM and `arith` do then? Wide64 BN254 G1 2^20/2^24, Portable32 2^20, arith; tests/gpu.rs
# under b.
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
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
names() { case $1 in p) echo "";; a) echo "fq_mul,fq_mul_sub";; b) echo "fq_mul,fq_mul_sub,fq_sqr";; esac; }
run() { # name variant args...
  local name=$1; local v=$2; shift 2
  if [ $v = m ]; then
    env WGPU_MSM_CACHE_DIR=$C/$v RUST_LOG=wgpu_msm=warn timeout 150 $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  else
    env WGPU_MSM_DIAG_NOINLINE="$(names $v)" WGPU_MSM_CACHE_DIR=$C/$v RUST_LOG=wgpu_msm=warn timeout 150 $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  fi
  echo "$name rc=$? t=$(el)" >> $S
}
for v in m p a b; do ok 200 && run arith-$v $v arith --threads 1048576 --iters 256; done
for v in m p a b; do ok 320 && run w64-$v $v bench --ark-max 0 --sizes 20,24 --repeat 7 --profile; done
for v in m b a p; do ok 420 && run p32-$v $v bench --ark-max 0 --arith portable32 --sizes 20 --repeat 7; done
ok 470 && { WGPU_MSM_DIAG_NOINLINE="fq_mul,fq_mul_sub,fq_sqr" WGPU_MSM_CACHE_DIR=$C/b timeout 110 $G/bin/gpu --test-threads 1 > $R/test-gpu-b.txt 2>&1; echo "test gpu b rc=$? t=$(el)" >> $S; grep "test result" $R/test-gpu-b.txt >> $S; }
(cd /tmp && tar czf $O/raw.tgz raw && tar czf $O/caches.tgz caches)
for f in $R/arith-*.txt; do echo "== $(basename $f)" >> $S; grep -E "NVIDIA" $f | grep -v tuning | cut -c1-150 >> $S; done
for f in $R/w64-*.txt $R/p32-*.txt; do echo "== $(basename $f)" >> $S; grep -E "^2026-11-27 NVIDIA" $f | cut -c1-100 >> $S; grep -E "^#0 NVIDIA H200 +(device|oneshot) " $f | cut -c1-200 >> $S; done
grep -h "diag noinline" $R/w64-b.txt | head -4 >> $S
