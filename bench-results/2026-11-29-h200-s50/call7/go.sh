#!/usr/bin/env bash
# Session 50 call 7: M = main (8a270a4) against N (the accumulation's loop with the
# flagged mixed addition on Wide64 BN254 G1, a careful tail for a run that met p == a;
# flagged.patch). N's gpu and bls12_381 test binaries; BN254 G1 2^16-2^24 two rounds
# alternating; BLS12-381 G1 and BN254 G2 2^24, Portable32 2^20 (their loop changed,
# not their addition).
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=$O/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in gpu bls12_381; do
  WGPU_MSM_CACHE_DIR=/tmp/cache-N timeout 170 $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test-$t rc=$? t=$(el)" >> $S
  grep -E "^test result|FAILED|panicked" $R/test-$t.txt | head -3 >> $S
done
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
for r in 1 2; do
  for v in M N; do ok 330 && run a-$v$r $v 80 $B --sizes 16,20,22,24 --repeat 7 --profile; done
done
for v in M N; do ok 360 && run bls-$v $v 40 $B --curve bls12-381 --group g1 --sizes 24 --repeat 5 --profile; done
for v in M N; do ok 390 && run g2-$v $v 40 $B --curve bn254 --group g2 --sizes 24 --repeat 5 --profile; done
for v in M N; do ok 420 && run p-$v $v 40 $B --arith portable32 --sizes 20 --repeat 7 --profile; done
for f in $R/a-*.txt $R/p-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bls*.txt $R/g2-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/a-*.txt $R/p-*.txt $R/bls*.txt $R/g2-*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +[12][0-9] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scat", $11, "acc", $12, "fold", $13, "coll", $14, "red", $15, "dev", $16, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:|panicked" $f | head -3 >> $S; done
(cd $O && tar czf raw.tgz raw && rm -rf raw)
