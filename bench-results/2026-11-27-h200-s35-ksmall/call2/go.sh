#!/usr/bin/env bash
# Session 35 call 2 (diagnostic build over afdf0a8): Portable32's Karatsuba multiply
# with fewer live values (WGPU_MSM_DIAG_KSMALL=3: fq_mul; 4: fq_mul and fq_mul_sub;
# src/shader/small.rs `mul_staged`), and BN254 G1's formulas on the register machine
# on small limbs (WGPU_MSM_DIAG_G1TAPE=1: one multiply site). Variants "KSMALL/G1TAPE":
# a 0/0 (main), b 0/1, c 3/1, d 4/1, e 3/0. Tests of the Portable32 path under d first.
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
ks() { case $1 in a) echo 0;; b) echo 0;; c) echo 3;; d) echo 4;; e) echo 3;; esac; }
gt() { case $1 in b|c|d) echo 1;; *) echo 0;; esac; }
run() { # name variant args...
  local name=$1; local v=$2; shift 2
  env WGPU_MSM_DIAG_KSMALL=$(ks $v) WGPU_MSM_DIAG_G1TAPE=$(gt $v) WGPU_MSM_CACHE_DIR=$C/$v timeout 150 $G/bin/wgpu-msm "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
WGPU_MSM_DIAG_KSMALL=4 WGPU_MSM_DIAG_G1TAPE=1 WGPU_MSM_CACHE_DIR=$C/t timeout 200 $G/bin/gpu --test-threads 1 portable32 > $R/test-gpu.txt 2>&1; echo "test gpu rc=$? t=$(el)" >> $S
grep "test result" $R/test-gpu.txt >> $S
WGPU_MSM_DIAG_KSMALL=4 WGPU_MSM_CACHE_DIR=$C/t timeout 150 $G/bin/g2 --include-ignored --test-threads 1 > $R/test-g2.txt 2>&1; echo "test g2 rc=$? t=$(el)" >> $S
grep "test result" $R/test-g2.txt >> $S
for v in a b c d; do run arith-$v $v arith --threads 1048576 --iters 256; done
for r in 1 2; do
  for v in a b c d e; do
    run p32-$v-$r $v bench --ark-max 0 --arith portable32 --sizes 16,20,22 --repeat 7 --profile
  done
done
for v in a c d; do run g2p32-$v $v bench --ark-max 0 --arith portable32 --curve bn254 --group g2 --sizes 20 --repeat 5; done
run w64 a bench --ark-max 0 --arith wide64 --sizes 16,20,22 --repeat 7
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/arith*.txt; do echo "== $f" >> $S; grep -iE "H200" $f >> $S; done
for f in $R/g2p32*.txt; do grep -E "bn254-g2" $f | awk -v k=$(basename $f .txt) '{print k, $0}' >> $S; done
for f in $R/p32*.txt $R/w64.txt; do grep -E "^(2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; done
for f in $R/p32*-1.txt; do grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' >> $S; done
