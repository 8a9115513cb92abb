#!/usr/bin/env bash
# Session 31 call 7 (experiment binary, fa625f6 + diag-g1-tape.patch): BN254 G1 on the
# register machine (WGPU_MSM_DIAG_G1_TAPE=1) against its written-out formulas, on
# Portable32 (issue 29: 1.96x Wide64; its kernel runs 4 workgroups an SM, register-bound)
# and Wide64 (the machine lost 1.6x there in session 26, before xyzz_madd_run).
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
for r in 1 2; do
  run p32-off-$r X=1 --arith portable32 --sizes 20,22 --repeat 5 --profile
  run p32-on-$r WGPU_MSM_DIAG_G1_TAPE=1 --arith portable32 --sizes 20,22 --repeat 5 --profile
done
run w64-off X=1 --sizes 20,24 --repeat 5 --profile
run w64-on WGPU_MSM_DIAG_G1_TAPE=1 --sizes 20,24 --repeat 5 --profile
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-200 >> $S; done
