#!/usr/bin/env bash
# Session 32 call 2 (diagnostic binary: call 1's code + diag-scatter.patch): where the
# nested bins' 47 ms go at 19 bits. WGPU_MSM_DIAG_SCATTER: nobins / nomid / nofine skip
# that kernel (results wrong, scatter column only); spread gives scatter_mid's tile
# 256 keys instead of 8 (contention on few workgroup counters; results wrong);
# balanced splits the bits above a fine bin evenly between scatter_bins and
# scatter_mid (19 bits: 64 coarse bins of 32 fine, verified).
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
for v in top nobins nomid nofine spread balanced; do
  run g1-c19-$v $D=$v --sizes 24 --repeat 3 --profile --window 19
done
run g1-c17-top $D=top --sizes 24 --repeat 3 --profile --window 17
run g1-c17-bal $D=balanced --sizes 24 --repeat 3 --profile --window 17
run g1-c16 $D=top --sizes 24 --repeat 3 --profile
run g1-c16-nofine $D=nofine --sizes 24 --repeat 3 --profile
run g2-bal $D=balanced --curve bn254 --group g2 --sizes 24 --repeat 5 --profile
run g2-curs WGPU_MSM_SCATTER_BINS=0 --curve bn254 --group g2 --sizes 24 --repeat 5 --profile
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*NVIDIA.* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-120 >> $S; grep -E "^#0 NVIDIA H200 +(oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-200 >> $S; done
