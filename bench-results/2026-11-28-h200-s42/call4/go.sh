#!/usr/bin/env bash
# Session 42 call 4: the host's combine of one MSM for the G1 groups: each window's sum
# on rayon's pool, then joined ("B"), against the calling thread with the doublings
# shared ("C", 7f074ca). BN254 G1 and BLS12-381 G1 at 2^14/2^16/2^20, two rounds
# alternating (median of 7, profiles: the combine column).
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
for r in 1 2; do
  for b in C B; do
    ok 200 && run g1-$b-$r $b 30 bench --ark-max 0 --sizes 14,16,20 --repeat 7 --profile --profile-runs 3
    ok 260 && run bls-$b-$r $b 30 bench --ark-max 0 --sizes 14,16,20 --repeat 7 --profile --profile-runs 3 --curve bls12-381 --group g1
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/g1-*.txt; do k=$(basename $f .txt); grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $f | awk -v k=$k '{print k, $5, $6, $7}' >> $S; done
for f in $R/bls-*; do k=$(basename $f .txt); grep -E "^11-2[0-9] .*#0 NVIDIA" $f | awk -v k=$k '{print k, $(NF-3), $(NF-2), $(NF-1)}' >> $S; done
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "^#0 NVIDIA" $f | awk -v k=$k '{print k, $4, $5, "combine", $(NF-3), "total", $(NF-2)}' >> $S; done
