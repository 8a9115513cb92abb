#!/usr/bin/env bash
# Session 51 call 5 (diagnostics of the register machine, BLS12-381 G1): M = main
# (f9f1e87), MU (M with the machine's programs unfused: a b - c d as two Mul steps,
# mu-unfused.patch), B (call 4's 30-bit limbs, unfused), MA (MU with every Mul step an
# addition: the machine without its multiplies, results wrong, ma-no-multiplies.patch).
# BLS12-381 G1 2^22 and 2^24, M / MU / B two rounds, MA once; BN254 G2 2^22 M / MU / MA.
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
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
for r in 1 2; do
  for v in M MU B; do ok 330 && run bls-$v$r $v 90 $B --curve bls12-381 --sizes 22,24 --repeat 5 --profile; done
done
ok 360 && run bls-MA1 MA 90 $B --curve bls12-381 --sizes 22,24 --repeat 5 --profile
for v in M MU MA; do ok 420 && run g2-$v $v 60 $B --group g2 --sizes 22 --repeat 5 --profile; done
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^1[12]-[0-9]+ +[a-z0-9-]+ +#0 NVIDIA" $f | awk -v k=$k '{print k, $0}' | sed -E 's/ +/ /g' >> $S; done
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +[12][0-9] " $f | awk -v k=$k '{print k, $4, $5, "acc", $12, "dev", $16, "total", $21, "run", $23}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:|panicked|FAILED" $f | head -3 >> $S; done
(cd $O && tar czf raw.tgz raw && rm -rf raw)
