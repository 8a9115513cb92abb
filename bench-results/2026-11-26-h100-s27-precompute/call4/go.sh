#!/usr/bin/env bash
# Session 27 call 4: BN254 G2 with the full accumulation thread count in small GLV passes
# (new) against main (half of it up to 2^21 points), alternating, all three modes.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
run() { # name bin args...
  local name=$1; local b=$2; shift 2
  timeout 120 $G/bin/$b bench --ark-max 0 --curve bn254 --group g2 "$@" > $R/$name.txt 2>&1; echo "$name rc=$? t=$(( $(date +%s) - T0 ))" >> $S
}
for r in 1 2 3; do
  for b in wgpu-msm-main wgpu-msm; do run $b-2022-$r $b --sizes 20,22 --repeat 7; done
done
for b in wgpu-msm-main wgpu-msm; do run $b-24 $b --sizes 24 --repeat 5; done
for b in wgpu-msm-main wgpu-msm; do run $b-20-prof $b --sizes 20 --repeat 3 --profile; done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
for f in $R/*.txt; do grep -E "^11-26 .*#0 NVIDIA .* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}'; done
