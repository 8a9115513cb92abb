#!/usr/bin/env bash
# Session 29 call 7: per-pass profiles (--timeline) of all-resident MSMs in one pass and
# in the one-shot's growing passes (WGPU_MSM_DEVICE_FIRST_PASS_SHIFT=4): BN254 G2 2^20
# (where they win) and BLS12-381 G2 2^20 (where they lose).
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
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
}
for g in "bn254 g2" "bls12-381 g2"; do
  set -- $g
  for sh in - 4; do
    run tl-$1-$2-$sh $sh --curve $1 --group $2 --sizes 20 --repeat 3 --profile --timeline 20
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/tl-*; do echo "== $f" >> $S; grep -E "device  |accumulate|pass" $f | grep -v "^tuning" | head -60 >> $S; done
