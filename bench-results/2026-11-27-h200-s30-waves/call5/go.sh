#!/usr/bin/env bash
# Session 30 call 5 (main at 3769abb): why all-resident 2^24 accumulates G2 slower than
# one-shot (BN254 G2 at 19 bits: 212.7 against 197 ms in call 4): accumulation threads
# (chunk length) and pass sizes of the all-resident plan, by tuning knobs.
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
G2="--curve bn254 --group g2 --sizes 24 --repeat 5 --profile --profile-runs 1"
run g2-base X=1 $G2
run g2-t19 WGPU_MSM_ACCUMULATE_THREADS_LOG2=19 $G2
run g2-passes "WGPU_MSM_RESIDENT_PASS_GROWTH=250 WGPU_MSM_RESIDENT_FIRST_PASS_SHIFT=5" $G2
run g2-t17 WGPU_MSM_ACCUMULATE_THREADS_LOG2=17 $G2
run g2-c19-t19 WGPU_MSM_ACCUMULATE_THREADS_LOG2=19 $G2 --window 19
run g2-base2 X=1 $G2
B2="--curve bls12-381 --group g2 --sizes 24 --repeat 3 --profile"
run bls2-base X=1 $B2
run bls2-t19 WGPU_MSM_ACCUMULATE_THREADS_LOG2=19 $B2
B1="--curve bls12-381 --group g1 --sizes 24 --repeat 5 --profile"
run bls1-base X=1 $B1
run bls1-t19 WGPU_MSM_ACCUMULATE_THREADS_LOG2=19 $B1
run bls1-passes "WGPU_MSM_RESIDENT_PASS_GROWTH=250 WGPU_MSM_RESIDENT_FIRST_PASS_SHIFT=5" $B1
run g1-t19 WGPU_MSM_ACCUMULATE_THREADS_LOG2=19 --sizes 24 --repeat 5 --profile
run g1-base X=1 --sizes 24 --repeat 5 --profile
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*(NVIDIA|arkworks).* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-130 >> $S; done
for f in $R/*.txt; do grep -E "^#0 NVIDIA " $f | awk -v k=$(basename $f .txt) '{print k, $4, $5, "scat", $11, "acc", $12, "fold", $13, "coll", $14, "red", $15, "span", $17, "passes", $(NF-1)}' >> $S; done
