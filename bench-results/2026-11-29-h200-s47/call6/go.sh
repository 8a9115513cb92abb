#!/usr/bin/env bash
# Session 47 call 6: does an accumulation kernel that holds fewer workgroups an SM get
# more registers and run faster? M = 52a86bb; P6 / P5 = M with 36 / 44 KiB of unused
# workgroup memory in `accumulate` (pad6.patch, pad5.patch: at most 6 / 5 workgroups an
# SM). BN254 G1 2^24 alternating (profiles: the accumulation and the workgroups running
# at once), 2^26 under 1 GiB; then each build's pipeline cache for its SASS.
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
run() { # name bin limit args... (env passes through)
  local name=$1; local b=$2; local lim=$3; shift 3
  WGPU_MSM_CACHE_DIR=/tmp/caches/$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
for v in M P6 P5 M; do ok 150 && run a24-$v-$(el) $v 50 $B --sizes 24 --repeat 7 --profile; done
for v in M P6; do ok 250 && run b26-$v $v 60 $B --sizes 26 --repeat 3 --budget 1GiB --profile; done
(cd /tmp && tar czf $O/raw.tgz raw && tar czf $O/caches.tgz caches)
for f in $R/a24*.txt $R/b26*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/a24*.txt $R/b26*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA H200 +(device|resident|oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "acc", $12, "dev", $16, "total", $21, "running", $23}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
