#!/usr/bin/env bash
# Session 49 call 2: what the driver's robust buffer access costs. M = 69eeebf (main) as
# it runs, against the same binary under R, a diagnostic Vulkan layer (norobust.c, built
# on the session's machine) that turns robustBufferAccess and robustBufferAccess2 off at
# vkCreateDevice. BN254 G1 2^20-2^24 two rounds alternating, Portable32 2^20 and 2^22,
# BLS12-381 G1 and BN254 G2 2^24, 2^26 under 1 GiB; both builds' pipeline caches (BN254
# G1 2^16, Wide64) for their SASS.
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
run() { # name variant limit args...
  local name=$1; local v=$2; local lim=$3; shift 3
  if [ $v = R ]; then
    VK_LAYER_PATH=$G/layer VK_INSTANCE_LAYERS=VK_LAYER_WGPUMSM_norobust WGPU_MSM_CACHE_DIR=/tmp/cache-R timeout $lim $G/bin/wgpu-msm-M "$@" > $R/$name.txt 2>&1
  else
    WGPU_MSM_CACHE_DIR=/tmp/cache-M timeout $lim $G/bin/wgpu-msm-M "$@" > $R/$name.txt 2>&1
  fi
  echo "$name rc=$? t=$(el) $(grep -c 'norobust layer' $R/$name.txt)" >> $S
}
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
for v in M R; do run c16-$v $v 60 $B --sizes 16 --repeat 3; mkdir -p $O/cache-$v; cp /tmp/cache-$v/*.bin $O/cache-$v/ 2>/dev/null; done
for r in 1 2; do
  for v in M R; do ok 300 && run a-$v$r $v 60 $B --sizes 20,22,24 --repeat 7 --profile; done
done
for v in M R; do ok 360 && run p-$v $v 60 $B --arith portable32 --sizes 20,22 --repeat 7 --profile; done
for v in M R; do ok 420 && run bls-$v $v 40 $B --curve bls12-381 --group g1 --sizes 24 --repeat 5 --profile; done
for v in M R; do ok 470 && run g2-$v $v 40 $B --curve bn254 --group g2 --sizes 24 --repeat 5 --profile; done
for v in M R; do ok 530 && run b26-$v $v 60 $B --sizes 26 --repeat 3 --budget 1GiB --profile; done
for f in $R/a-*.txt $R/p-*.txt $R/b26*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/bls*.txt $R/g2-*.txt; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
for f in $R/a-*.txt $R/p-*.txt $R/b26*.txt $R/bls*.txt $R/g2-*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "coll", $14, "red", $15, "dev", $16, "span", $17, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:|panicked" $f | head -3 >> $S; done
(cd $O && tar czf raw.tgz raw cache-M cache-R && rm -rf raw cache-M cache-R)
