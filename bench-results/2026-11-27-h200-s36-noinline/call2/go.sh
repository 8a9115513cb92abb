#!/usr/bin/env bash
# Session 36, one H200, call 2: noinline.patch with SPIR-V 1.6 (call 1's 1.3 modules
# listed no workgroup variables per entry point: every MSM kernel ran 2-3x slower through
# passthrough, a broken baseline). Variants: m = main path, p = passthrough with nothing
# marked, a = fq_mul,fq_mul_sub DontInline. Wide64 BN254 G1 2^20/2^24 and Portable32 2^20,
# median of 7, two rounds; arith under p and a.
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
names() { case $1 in p) echo "";; a) echo "fq_mul,fq_mul_sub";; esac; }
run() { # name variant args...
  local name=$1; local v=$2; shift 2
  if [ $v = m ]; then
    env WGPU_MSM_CACHE_DIR=$C/$v timeout 150 $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  else
    env WGPU_MSM_DIAG_NOINLINE="$(names $v)" WGPU_MSM_CACHE_DIR=$C/$v timeout 150 $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  fi
  echo "$name rc=$? t=$(el)" >> $S
}
for v in p a; do ok 100 && run arith-$v $v arith --threads 1048576 --iters 256; done
for r in 1 2; do
  for v in m p a; do ok 330 && run w64-$v-$r $v bench --ark-max 0 --sizes 20,24 --repeat 7 --profile; done
done
for v in m p a; do ok 430 && run p32-$v $v bench --ark-max 0 --arith portable32 --sizes 20 --repeat 7 --profile; done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/arith-*.txt; do echo "== $(basename $f)" >> $S; grep -E "NVIDIA" $f | grep -v tuning | cut -c1-150 >> $S; done
for f in $R/w64-*.txt $R/p32-*.txt; do echo "== $(basename $f)" >> $S; grep -E "^2026-11-27 NVIDIA" $f | cut -c1-100 >> $S; grep -E "^#0 NVIDIA H200 +(device) " $f | cut -c1-200 >> $S; done
