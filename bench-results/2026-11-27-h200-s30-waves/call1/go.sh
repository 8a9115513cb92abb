#!/usr/bin/env bash
# Session 30 call 1: accumulation thread count swept finely (WGPU_MSM_DIAG_ACC_THREADS:
# exact total threads, chunks of any length): does the accumulation lose time to the
# last partial wave of resident threads?
set -u
G=$(cd "$(dirname "$0")" && pwd)
cd "$G"; [ -d bin ] || { tar xJf bin.tar.xz; }
cd "$G/.."
O=${OUT:-/tmp}
S=$O/summary.txt
R=/tmp/raw; mkdir -p $R
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
run() { # name threads args...
  local name=$1; local th=$2; shift 2
  if [ "$th" = "-" ]; then
    timeout 100 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  else
    WGPU_MSM_DIAG_ACC_THREADS=$th timeout 100 $G/bin/wgpu-msm bench --ark-max 0 "$@" > $R/$name.txt 2>&1
  fi
  local rc=$?
  local med=$(grep -E "^[0-9-]+ .* device +[0-9.]+ +(true|false)" $R/$name.txt | awk '{print $8, $9}')
  local acc=$(grep -E "^#0 NVIDIA .* device +[0-9]+ " $R/$name.txt | awk '{print $12, $13, $14, $15, $17}')
  echo "$name th=$th rc=$rc med/ver=$med acc/fold/collect/reduce/span=$acc t=$(( $(date +%s) - T0 ))" >> $S
}
run g2-base - --curve bn254 --group g2 --sizes 20 --repeat 3 --profile
for th in $(seq 16384 4096 147456); do
  run g2-$th $th --curve bn254 --group g2 --sizes 20 --repeat 3 --profile
done
run g2-base2 - --curve bn254 --group g2 --sizes 20 --repeat 3 --profile
run g1-base - --sizes 24 --repeat 3 --profile
for th in $(seq 262144 24576 720896); do
  run g1-$th $th --sizes 24 --repeat 3 --profile
done
(cd /tmp && tar czf $O/raw.tgz raw)
