#!/usr/bin/env bash
# Session 28 call 3: fused Y3 steps on the register machine (a b - c d under one
# reduction; Fq2's over the radix-2^29 Fq lazily) against main, alternating, then the
# parity tests of the groups that run on the machine.
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
  timeout 150 $G/bin/$b bench --ark-max 0 "$@" > $R/$name.txt 2>&1; echo "$name rc=$? t=$(( $(date +%s) - T0 ))" >> $S
}
for r in 1 2; do
  for b in wgpu-msm-main wgpu-msm-fused; do
    run $b-g2-$r $b --curve bn254 --group g2 --sizes 20,24 --repeat 7
    run $b-bls1-$r $b --curve bls12-381 --group g1 --sizes 20,24 --repeat 7
  done
done
for b in wgpu-msm-main wgpu-msm-fused; do
  run $b-bls2 $b --curve bls12-381 --group g2 --sizes 20 --repeat 7
  run $b-g1 $b --sizes 20,24 --repeat 7
  run $b-g2prof $b --curve bn254 --group g2 --sizes 20 --repeat 3 --profile
done
for t in fq2 g2 bls12_381; do
  timeout 150 $G/bin/$t --include-ignored --test-threads=1 > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - T0 ))" >> $S
  grep -E "test result|FAILED|panicked" $R/test-$t.txt | head -5 >> $S
done
(cd /tmp && tar czf $O/raw.tgz raw)
cat $S
for f in $R/*.txt; do grep -E "^11-26 .*#0 NVIDIA .* (oneshot|resident|device) " $f | awk -v k=$(basename $f .txt) '{print k, $(NF-3), $(NF-2), $(NF-1), $NF}'; done
