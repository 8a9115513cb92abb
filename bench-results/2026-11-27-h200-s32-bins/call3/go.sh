#!/usr/bin/env bash
# Session 32 call 3 (diagnostic binary: call 2's patch plus four scatter_mid toggles):
# what in scatter_mid costs 40 ms at 19 bits. WGPU_MSM_DIAG_SCATTER: noatom (ranks
# without the workgroup atomics), nosearch (no binary search for a place's bin),
# nowrite (no global store), oneload (no load of the entry, only of its key); results
# wrong, scatter column only.
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
D=WGPU_MSM_DIAG_SCATTER
for v in top noatom nosearch nowrite oneload nosearch,nowrite noatom,nosearch,nowrite,oneload nofine,nobins; do
  run g1-c19-$v $D=$v --sizes 24 --repeat 3 --profile --window 19
done
run g1-c17-noatom $D=noatom --sizes 24 --repeat 3 --profile --window 17
run g1-c17-nowrite $D=nowrite --sizes 24 --repeat 3 --profile --window 17
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-200 >> $S; done
