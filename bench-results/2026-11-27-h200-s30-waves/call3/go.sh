#!/usr/bin/env bash
# Session 30 call 3: main with whole waves (3769abb), every group and mode at 2^20 and
# 2^24 (issue 26's table) and BN254 G1 at 2^16-2^24 (issue 30's), medians of 7; the
# parity tests; the wave sizes the runs kept on disk.
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
run() { # name args...
  local name=$1; shift
  timeout 150 $G/bin/wgpu-msm bench "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
run g1 --sizes 16,20,22,24 --repeat 7 --ark-max 20
run bls1 --curve bls12-381 --group g1 --sizes 20,24 --repeat 7 --ark-max 0
run g2 --curve bn254 --group g2 --sizes 20,24 --repeat 7 --ark-max 0
run bls2 --curve bls12-381 --group g2 --sizes 20,24 --repeat 7 --ark-max 0
for t in gpu bls12_381 g2; do
  l=$(( 560 - $(el) ))
  [ $l -gt 20 ] || break
  timeout $(( l < 150 ? l : 150 )) $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
cat $HOME/.cache/wgpu-msm/*.waves >> $S 2>&1
if [ $(el) -lt 430 ]; then run g1-again --sizes 20,24 --repeat 7 --ark-max 0 --profile; fi
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^(11-27|2026-11-27) .*(NVIDIA|arkworks).* (cpu|oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $0}' | cut -c1-140 >> $S; done
