#!/usr/bin/env bash
# Session 36, four H200s, call 2 (same binary as call 1): why the cluster's one-shot scales
# 2.4x on four devices at 2^24 (resident 3.0x, all resident 3.6x). transfer's bandwidths,
# then BN254 G1 one-shot profiles and timelines at 2^24 on four devices, on two of them,
# and on four with 6 upload threads a device (12 by default).
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
O=${OUT:-/tmp}
S=$O/summary.txt
R=$O/raw; mkdir -p $R
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
ok() { [ $(el) -lt $1 ]; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader >> $S
nvidia-smi topo -m > $R/topo.txt 2>&1
timeout 120 $G/bin/wgpu-msm transfer --mib 512 > $R/transfer.txt 2>&1; echo "transfer rc=$? t=$(el)" >> $S
B="bench --sizes 22,24 --repeat 7 --ark-max 0 --profile --timeline 24"
ok 200 && { timeout 120 $G/bin/wgpu-msm $B > $R/p4.txt 2>&1; echo "p4 rc=$? t=$(el)" >> $S; }
ok 300 && { timeout 100 $G/bin/wgpu-msm $B --devices 0,1 > $R/p2.txt 2>&1; echo "p2 rc=$? t=$(el)" >> $S; }
ok 400 && { WGPU_MSM_UPLOAD_THREADS=6 timeout 100 $G/bin/wgpu-msm $B > $R/p4-t6.txt 2>&1; echo "p4-t6 rc=$? t=$(el)" >> $S; }
ok 480 && { WGPU_MSM_UPLOAD_THREADS=24 timeout 100 $G/bin/wgpu-msm $B > $R/p4-t24.txt 2>&1; echo "p4-t24 rc=$? t=$(el)" >> $S; }
cat $R/transfer.txt | grep -v tuning | head -30 >> $S
for f in p4 p2 p4-t6 p4-t24; do [ -f $R/$f.txt ] || continue; echo "== $f" >> $S; grep -E "^2026-11-27 cluster" $R/$f.txt | cut -c1-100 >> $S; grep -E "cluster of . oneshot +24" $R/$f.txt | cut -c1-230 >> $S; done
