#!/usr/bin/env bash
# Session 27 call 5 (H200): BN254 G2 2^20 all resident under pass sizes (--chunk),
# accumulation threads and seeded heads, to find an all-resident shape that accumulates
# as fast as the one-shot MSM's passes (15.3 against 17.7 ms, call 4). Knobs only.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
B=$G/bin/wgpu-msm
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
run() { # name env args...
  local name=$1; local e=$2; shift 2
  env $e timeout 60 $B bench --ark-max 0 --curve bn254 --group g2 --sizes 20 --repeat 7 --profile "$@" > $R/$name.txt 2>&1; echo "$name rc=$? t=$(( $(date +%s) - T0 ))" >> $S
}
for r in 1 2; do
  run def-$r X=1
  run c19-$r X=1 --chunk 19
  run c18-$r X=1 --chunk 18
  run c19-s-$r WGPU_MSM_SEED_PER_BUCKET=100000 --chunk 19
  run c18-s-$r WGPU_MSM_SEED_PER_BUCKET=100000 --chunk 18
  run c19-t16-$r WGPU_MSM_ACCUMULATE_THREADS_LOG2=16 --chunk 19
  run c18-t16-$r WGPU_MSM_ACCUMULATE_THREADS_LOG2=16 --chunk 18
  run t18-$r WGPU_MSM_ACCUMULATE_THREADS_LOG2=18
  run t19-$r WGPU_MSM_ACCUMULATE_THREADS_LOG2=19
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
for f in $R/*.txt; do
  m=$(grep -E "^11-26 .*#0 NVIDIA .* (oneshot|device) " $f | awk '{printf "%s %s  ", $(NF-2), $(NF-1)}')
  p=$(grep -E "^#0 NVIDIA .* device " $f | awk '{for(i=1;i<=NF;i++) if($i=="device") d=i; print "acc", $(d+8), "fold", $(d+9), "coll", $(d+10), "red", $(d+11), "passes", $NF}')
  echo "$(basename $f .txt): $m | $p"
done
