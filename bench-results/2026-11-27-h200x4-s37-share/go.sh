#!/usr/bin/env bash
# Session 37 call 3 (four H200s of one host): the host's upload threads shared by the
# devices that upload at once (24 / k a device) against main 55cd924 (12 a device) and
# main with 6 a device set by hand; one-shot MSMs on each device and the cluster of
# four, BN254 G1 2^22/2^24 (raw bytes) then BLS12-381 G1 (converted on the host),
# rounds alternating.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=$O/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 >> $S
nproc >> $S
b() { # name binary threads args...
  local name=$1 bin=$2 t=$3; shift 3
  if [ "$t" = def ]; then timeout 90 $G/bin/$bin bench "$@" > $R/$name.txt 2>&1; else WGPU_MSM_UPLOAD_THREADS=$t timeout 90 $G/bin/$bin bench "$@" > $R/$name.txt 2>&1; fi
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2; do
  for v in "old def" "new def" "old 6"; do
    set -- $v
    ok 300 && b g1-$1-$2-$r $1 $2 --sizes 22,24 --repeat 9 --ark-max 0
  done
done
for r in 1 2; do
  for v in "old def" "new def"; do
    set -- $v
    ok 480 && b bls-$1-$2-$r $1 $2 --curve bls12-381 --sizes 22,24 --repeat 7 --ark-max 0
  done
done
for f in $R/*.txt; do echo "== $(basename $f)" >> $S; grep -E "^2026-11-27 .* oneshot|FAILED|false" $f | cut -c1-100 >> $S; done
