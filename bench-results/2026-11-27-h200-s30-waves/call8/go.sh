#!/usr/bin/env bash
# Session 30 call 8: seeded heads in every later pass (WGPU_MSM_SEED_PER_BUCKET=100000)
# against the default (32 points a bucket, pieces above), alternating, every group but
# BN254 G1 at 2^20, 2^22 and 2^24, all three modes.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
run() { # name env args...
  local name=$1; local e=$2; shift 2
  env $e timeout 150 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for g in "bn254 g2" "bls12-381 g2" "bls12-381 g1"; do
  set -- $g
  for s in 32 100000; do run $1-$2-s$s WGPU_MSM_SEED_PER_BUCKET=$s --curve $1 --group $2 --sizes 20,22,24 --repeat 5; done
done
for s in 32 100000; do run bn254-g1-s$s WGPU_MSM_SEED_PER_BUCKET=$s --sizes 20,22,24 --repeat 5; done
for s in 100000 32; do run bn254-g2-r2-s$s WGPU_MSM_SEED_PER_BUCKET=$s --curve bn254 --group g2 --sizes 20,22,24 --repeat 5; done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
