#!/usr/bin/env bash
# Session 39 call 5: BLS12-381 G1 2^24 with resident bases under 1 GiB on top of them
# (`--resident-budget 1GiB`): the rule's fill (passes of 1.25 * 2^20 points, 19-bit
# windows; 0bea535) against the narrower plan's windows climbing (WGPU_MSM_DIAG_FILL=
# narrow, diag-fill-narrow.patch: 3.75 * 2^20 points, 16-bit windows). Same binary, two
# rounds alternating, median of 7.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
export WGPU_MSM_CACHE_DIR=/tmp/cache-wgpu-msm
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
for r in 1 2; do
  for v in rule narrow; do
    ok 300 && WGPU_MSM_DIAG_FILL=$v timeout 80 $G/bin/wgpu-msm bench --ark-max 0 --curve bls12-381 --group g1 --sizes 24 --repeat 7 --resident-budget 1GiB > $R/$v-$r.txt 2>&1
    echo "$v-$r rc=$? t=$(el)" >> $S
  done
done
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do k=$(basename $f .txt); grep -E "#0 NVIDIA" $f | grep -E "oneshot|resident|device" | awk -v k=$k '{print k, $0}' | cut -c1-120 >> $S; done
