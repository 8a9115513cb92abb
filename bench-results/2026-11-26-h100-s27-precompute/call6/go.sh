#!/usr/bin/env bash
# Session 27 call 6 (H200): reduction workgroups of 128 lanes (diagnostic build
# wgpu-msm-wg128: REDUCE_WG = 128, BN254 G2 sized for Wide64 with HACK_WIDE=1, the
# segments override up to 2^13) against main, with 2^11 / 2^12 / 2^13 reduction threads
# a window. BN254 G2 2^20 and BN254 G1 2^16 / 2^20 / 2^24, all modes, profiles.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
run() { # name bin env args...
  local name=$1; local b=$2; local e=$3; shift 3
  env HACK_WIDE=1 $e timeout 100 $G/bin/$b bench --ark-max 0 --repeat 7 --profile "$@" > $R/$name.txt 2>&1; echo "$name rc=$? t=$(( $(date +%s) - T0 ))" >> $S
}
for r in 1 2; do
  run g2-main-$r wgpu-msm X=1 --curve bn254 --group g2 --sizes 20
  for s in 11 12 13; do run g2-wg128-s$s-$r wgpu-msm-wg128 WGPU_MSM_REDUCE_SEGS_LOG2=$s --curve bn254 --group g2 --sizes 20; done
  run g1-main-$r wgpu-msm X=1 --sizes 16,20,24
  for s in 11 12 13; do run g1-wg128-s$s-$r wgpu-msm-wg128 WGPU_MSM_REDUCE_SEGS_LOG2=$s --sizes 16,20,24; done
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
for f in $R/*.txt; do
  grep -E "^(11-26 .*#0 NVIDIA|2026-11-26 NVIDIA) .* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{for(i=1;i<=NF;i++) if($i=="oneshot"||$i=="resident"||$i=="device") {m=$i; d=i}; if ($0 ~ /^11-26/) print k, $(d-1), m, $(d+1); else print k, $(d+1), m, $(d+2)}'
  grep -E "^#0 NVIDIA .* device " $f | awk -v k=$(basename $f .txt) '{for(i=1;i<=NF;i++) if($i=="device") d=i; print k, "prof", $(d+1), "acc", $(d+8), "red", $(d+11), "dev", $(d+12)}'
done
