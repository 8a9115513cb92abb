#!/usr/bin/env bash
# Session 29 call 6: all-resident (device) MSMs in growing passes, as one-shot ones run
# (WGPU_MSM_DEVICE_FIRST_PASS_SHIFT, an experiment), against one pass; BN254 G2 2^20
# first (issue 26's cell), then the other groups and 2^22.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=$O/raw; mkdir -p $R
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
run() { # name shift args...
  local name=$1; local sh=$2; shift 2
  if [ "$sh" = "-" ]; then
    timeout 150 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  else
    WGPU_MSM_DEVICE_FIRST_PASS_SHIFT=$sh timeout 150 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  fi
  echo "$name rc=$? t=$(( $(date +%s) - T0 ))" >> $S
  grep -E "^11-26 .*#0 NVIDIA .* device " $R/$name.txt | sed "s/^/$name | /" >> $S
}
for r in 1 2; do
  run g2-main-$r - --curve bn254 --group g2 --sizes 20 --repeat 9
  run g2-s4-$r 4 --curve bn254 --group g2 --sizes 20 --repeat 9
done
run g2-s3 3 --curve bn254 --group g2 --sizes 20 --repeat 9
run g2-s5 5 --curve bn254 --group g2 --sizes 20 --repeat 9
run g2-main-3 - --curve bn254 --group g2 --sizes 20 --repeat 9
run g2-s4-3 4 --curve bn254 --group g2 --sizes 20 --repeat 9
run g2prof-main - --curve bn254 --group g2 --sizes 20 --repeat 3 --profile
run g2prof-s4 4 --curve bn254 --group g2 --sizes 20 --repeat 3 --profile
grep -E "^#0 NVIDIA .* device " $R/g2prof-*.txt >> $S
for g in "bls12-381 g2" "bn254 g1" "bls12-381 g1"; do
  set -- $g
  run $1-$2-main - --curve $1 --group $2 --sizes 20 --repeat 7
  run $1-$2-s4 4 --curve $1 --group $2 --sizes 20 --repeat 7
done
run g2-22-main - --curve bn254 --group g2 --sizes 22 --repeat 5
run g2-22-s4 4 --curve bn254 --group g2 --sizes 22 --repeat 5
