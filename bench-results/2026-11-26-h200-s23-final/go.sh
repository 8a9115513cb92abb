#!/usr/bin/env bash
# Main at 7730fa5: every group at 2^20 and 2^24 (three modes), BN254 G1 2^16-2^24 and
# 2^26 streamed, both multiply paths at 2^16/2^20/2^22 (issue 29's table).
set -u
cd "$(dirname "$0")"
[ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
b() { local tag=$1 t=$2; shift 2; echo "== $tag: $*" > $O/$tag.txt; local s=$(date +%s); timeout $t "$@" >> $O/$tag.txt 2>&1; echo "$tag rc=$? $(( $(date +%s)-s ))s" >> $O/summary.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/gpu.txt
b bn-g1 200 bin/wgpu-msm bench --sizes 16,20,22,24 --repeat 9 --ark-max 0 --json $O/bn-g1.json
b bls-g1 150 bin/wgpu-msm bench --curve bls12-381 --group g1 --sizes 20,24 --repeat 7 --ark-max 0
b bn-g2 150 bin/wgpu-msm bench --curve bn254 --group g2 --sizes 20,24 --repeat 7 --ark-max 0
b bls-g2 200 bin/wgpu-msm bench --curve bls12-381 --group g2 --sizes 20,24 --repeat 7 --ark-max 0
b p32 150 bin/wgpu-msm bench --sizes 16,20,22 --arith portable32 --repeat 9 --ark-max 0 --json $O/p32.json
b w64 150 bin/wgpu-msm bench --sizes 16,20,22 --arith wide64 --repeat 9 --ark-max 0
b s26 200 bin/wgpu-msm bench --sizes 26 --budget 1GiB --repeat 5 --ark-max 0
{ cat $O/gpu.txt $O/summary.txt; grep -h "^2026.*NVIDIA H200 \|^11-2" $O/*.txt | grep -v cluster; } > $O/table.txt
mkdir -p $O/raw && mv $O/bn-g1.txt $O/bls-*.txt $O/bn-g2.txt $O/p32.txt $O/w64.txt $O/s26.txt $O/raw/ && (cd $O && tar czf raw.tgz raw && rm -r raw)
cat $O/table.txt
