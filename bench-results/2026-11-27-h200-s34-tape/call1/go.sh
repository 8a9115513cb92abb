#!/usr/bin/env bash
# Session 34 call 1 (diagnostic build over 793f994): the register machine's memory.
# WGPU_MSM_DIAG_TAPE bits: 1 = registers as vec4s (16-byte aligned, padded: 80 bytes
# for BN254's Fq2), 2 = the accumulation loads each base when it adds it (not one
# iteration ahead), 4 = each machine step's operands for the next step load before this
# step computes. G2 rows of every variant, then repeats; caches kept for SASS.
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
  env WGPU_MSM_DIAG_TAPE=$v WGPU_MSM_CACHE_DIR=$C/v$v timeout 120 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for v in 0 1 4 5 2 3; do
  run g2-v$v-1 $v --curve bn254 --group g2 --sizes 20,24 --repeat 5 --profile
  run bls2-v$v-1 $v --curve bls12-381 --group g2 --sizes 20,24 --repeat 5 --profile
done
for v in 0 1 5; do
  run bls1-v$v-1 $v --curve bls12-381 --group g1 --sizes 20,24 --repeat 5 --profile
done
for v in 0 1 4 5; do
  [ $(el) -gt 500 ] && break
  run g2-v$v-2 $v --curve bn254 --group g2 --sizes 20,24 --repeat 5 --profile
done
(cd /tmp && tar czf $O/raw.tgz raw && tar czf $O/caches.tgz caches)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' >> $S; done
