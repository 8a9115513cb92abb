#!/usr/bin/env bash
# Session 42 call 5: the merged build (be32723: the host sums a single MSM's windows on
# its pool in every group) on the H200: tests gpu (both paths, CUDA parity), bls12_381,
# g2 (with its ignored tests where time allows), embed, workgroup_memory; one bench row
# set of BN254 G1 at 2^16 and 2^24 against the CUDA vectors.
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
export WGPU_MSM_CACHE_DIR=/tmp/cache
for t in gpu bls12_381 embed workgroup_memory g2; do
  ok 150 && { timeout 100 $G/bin/$t --test-threads 1 $([ $t = g2 ] && echo --include-ignored) > $R/test-$t.txt 2>&1; echo "test $t rc=$? t=$(el)" >> $S; }
  grep -E "test result|FAILED|panicked" $R/test-$t.txt | head -5 >> $S
done
ok 230 && { timeout 40 $G/bin/wgpu-msm bench --ark-max 0 --sizes 16,24 --repeat 5 > $R/bench.txt 2>&1; echo "bench rc=$? t=$(el)" >> $S; }
grep -E "^2026-1[12]-[0-9]+ +NVIDIA" $R/bench.txt | awk '{print $5, $6, $7, $NF}' >> $S
(cd /tmp && tar czf $O/raw.tgz raw)
