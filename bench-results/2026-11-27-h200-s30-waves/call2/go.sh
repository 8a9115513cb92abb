#!/usr/bin/env bash
# Session 30 call 2: accumulation in whole waves (Tuning::whole_waves, measured wave size)
# against without (WGPU_MSM_WHOLE_WAVES=0), alternating, same binary; then the parity
# tests that run MSMs.
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
run() { # name waves args...
  local name=$1; local wv=$2; shift 2
  WGPU_MSM_WHOLE_WAVES=$wv timeout 120 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? t=$(el)" >> $S
}
for r in 1 2; do
  for wv in 0 1; do run g2-w$wv-$r $wv --curve bn254 --group g2 --sizes 20,22 --repeat 7; done
  for wv in 0 1; do run bls2-w$wv-$r $wv --curve bls12-381 --group g2 --sizes 20 --repeat 7; done
done
for wv in 0 1; do run g2prof-w$wv $wv --curve bn254 --group g2 --sizes 20 --repeat 3 --profile; done
for wv in 0 1; do run bls2prof-w$wv $wv --curve bls12-381 --group g2 --sizes 20 --repeat 3 --profile; done
for wv in 0 1; do run g1-w$wv $wv --sizes 16,20,24 --repeat 7 --profile; done
for wv in 0 1; do run bls1-w$wv $wv --curve bls12-381 --group g1 --sizes 20,24 --repeat 5 --profile; done
for t in gpu bls12_381 g2; do
  l=$(( 560 - $(el) ))
  [ $l -gt 20 ] || break
  timeout $(( l < 150 ? l : 150 )) $G/bin/$t --test-threads 1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S
  grep "test result" $R/test-$t.txt >> $S
done
if [ $(el) -lt 440 ]; then
  for wv in 0 1; do run g2-24-w$wv $wv --curve bn254 --group g2 --sizes 24 --repeat 5 --profile; done
fi
(cd /tmp && tar czf $O/raw.tgz raw)
for f in $R/*.txt; do grep -E "^11-2. .*#0 NVIDIA .* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF}' >> $S; done
for f in $R/*prof*.txt $R/g1-*.txt $R/bls1-*.txt $R/g2-24*.txt; do [ -f $f ] && grep -E "^#0 NVIDIA " $f | awk -v k=$(basename $f .txt) '{print k, $4, $5, "acc", $12, "fold", $13, "coll", $14, "red", $15, "span", $17, "run", $NF}' >> $S; done
