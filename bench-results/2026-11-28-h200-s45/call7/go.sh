#!/usr/bin/env bash
# Session 45 call 7: the session's final build (F = fe9e6a0: 22-bit windows for BN254 G1
# from 2^24 points, longer reduction walks, 400% pass growth for them) against main
# (33f5285): every test binary with F; BN254 G1 2^16-2^24 two rounds alternating
# (median of 7, profiles); 2^26 under 1 GiB with F; the other groups at 2^20/2^24 with F,
# one round (median of 5).
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
run() { # name bin limit args...
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for t in gpu bls12_381 g2 embed copied_uploads workgroup_memory portable bounded; do
  ok 200 && { WGPU_MSM_CACHE_DIR=/tmp/cache-F timeout 120 $G/bin/$t --test-threads 1 --nocapture > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked|22-bit" $R/test-$t.txt | head -5 >> $S
done
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
for r in 1 2; do
  for b in main F; do
    ok 380 && run g1-$b-$r $b 60 $B --sizes 16,20,22,24 --repeat 7 --profile
  done
done
ok 400 && run b26-F-1 F 60 $B --sizes 26 --repeat 5 --budget 1GiB
ok 430 && run bls12-381g1-F F 50 $B --sizes 20,24 --repeat 5 --curve bls12-381 --profile
ok 455 && run bn254g2-F F 50 $B --sizes 20,24 --repeat 5 --group g2 --profile
ok 475 && run bls12-381g2-F F 70 $B --sizes 20,24 --repeat 5 --curve bls12-381 --group g2 --profile
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt $R/b26-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/g1-*.txt $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device) +2[0-4] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16}' >> $S; done
for f in $R/bn254g2-* $R/bls12-381g*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
