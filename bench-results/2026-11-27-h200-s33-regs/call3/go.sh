#!/usr/bin/env bash
# Session 33 call 3: the compiled kernels as the NVIDIA driver keeps them (wgpu's
# pipeline cache files and the driver's own shader disk cache), for SASS read here
# with nvdisasm: `arith` (bench_fq_mul, bench_madd) at main's multiply and at K2, and
# BN254 G2's MSM kernels at main's.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
C=/tmp/caches; mkdir -p $C
for k in 0 2; do
  mkdir -p $C/w$k $C/nv$k
  env WGPU_MSM_DIAG_KARA=$k WGPU_MSM_CACHE_DIR=$C/w$k __GL_SHADER_DISK_CACHE_PATH=$C/nv$k __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 timeout 60 $G/bin/wgpu-msm arith --threads 65536 --iters 64 > $C/arith$k.txt 2>&1; echo "arith $k rc=$?" >> $S
done
mkdir -p $C/wg2 $C/nvg2
env WGPU_MSM_CACHE_DIR=$C/wg2 __GL_SHADER_DISK_CACHE_PATH=$C/nvg2 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 timeout 100 $G/bin/wgpu-msm bench --ark-max 0 --curve bn254 --group g2 --sizes 12 --repeat 1 > $C/g2.txt 2>&1; echo "g2 rc=$?" >> $S
mkdir -p $C/wg1 $C/nvg1
env WGPU_MSM_CACHE_DIR=$C/wg1 __GL_SHADER_DISK_CACHE_PATH=$C/nvg1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 timeout 100 $G/bin/wgpu-msm bench --ark-max 0 --sizes 12 --repeat 1 > $C/g1.txt 2>&1; echo "g1 rc=$?" >> $S
find $C -type f | xargs ls -la >> $S
(cd /tmp && tar czf $O/caches.tgz caches)
ls -la $O >> $S
