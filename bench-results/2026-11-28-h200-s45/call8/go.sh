#!/usr/bin/env bash
# Session 45 call 8 (F = fe9e6a0): Portable32 BN254 G1 2^24 with the rule's 22-bit
# windows against --window 19 (does the rule suit that path too?); the resident mode's
# first pass and growth at 2^24 with 22-bit windows; 2^26 under 1 GiB with a profile and
# its timeline (where the stream's time goes, for the next session).
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
  WGPU_MSM_CACHE_DIR=/tmp/cache-$b timeout $lim $G/bin/wgpu-msm-$b "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
B="bench --ark-max 0 --warmup-ms 300 --strategy even"
ok 100 && run p32-w22 F 60 $B --sizes 24 --repeat 5 --arith portable32 --profile
ok 160 && run p32-w19 F 60 $B --sizes 24 --repeat 5 --arith portable32 --profile --window 19
for v in RESIDENT_FIRST_PASS_SHIFT=3 RESIDENT_FIRST_PASS_SHIFT=2 RESIDENT_PASS_GROWTH=250 NONE=1; do
  k=WGPU_MSM_${v%%=*}; export $k=${v#*=}
  ok 260 && run g1-$v F 40 $B --sizes 24 --repeat 7
  unset $k
done
ok 300 && run b26-F F 90 $B --sizes 26 --repeat 3 --budget 1GiB --profile --timeline 26
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt $R/b26-*.txt $R/p32-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7, $NF}' >> $S; done
for f in $R/p32-*.txt $R/b26-*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA.* (device|oneshot\*?) +2[0-6] " $f | awk -v k=$k '{print k, $4, $5, "dec", $9, "scan", $10, "scat", $11, "acc", $12, "red", $15, "dev", $16, "span", $17, "total", $21, "passes", $22}' >> $S; done
for f in $R/*.txt; do grep -E "^error|rror:" $f | head -3 >> $S; done
