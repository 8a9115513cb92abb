#!/usr/bin/env bash
# Correctness and speed on a lent GPU machine (not run by CI). Build and pack here first:
#   cargo build --release && cargo test --release --no-run
#   ../shared/gpu/pack.sh target/release/wgpu-msm target/release/deps/<each test binary>
#   (over the 64 MiB a call carries: strip .gpu/bin/*, then
#    (cd .gpu && tar cf - bin | xz -T2 > bin.tar.xz && rm -r bin); it is unpacked here)
# then run `bash .ci/gpu-check.sh [BENCH ARGS...]` there with .gpu carried. It runs every
# packed test binary, the CUDA parity check on both arithmetic paths, then `bench` with
# the given arguments (default: 2^16..2^24 step 2, 7 repeats), and prints a table last.
# Extra binaries named wgpu-msm-* in .gpu/bin (e.g. wgpu-msm-before) are benched with
# the same arguments, alternating with wgpu-msm, for same-run comparisons.
set -uo pipefail
[ -f .gpu/bin.tar.xz ] && (cd .gpu && tar xJf bin.tar.xz)
source .gpu/env.sh
out=${OUT:-/tmp/gpu-check}
mkdir -p "$out"
bin=.gpu/bin
nvidia-smi --query-gpu=name,driver_version,clocks.current.sm,clocks.max.sm --format=csv 2>/dev/null
"$bin/wgpu-msm" list
for t in "$bin"/*-*; do
  name=$(basename "$t")
  case "$name" in wgpu-msm*) continue ;; esac
  echo "== test ${name%-*}"
  timeout 300 "$t" 2>&1 | grep -E "^test result|FAILED|panicked|failed" | head -20
done
echo "== parity"
timeout 300 "$bin/wgpu-msm" parity --sizes 16,20,22,24 2>&1 | tail -6
timeout 300 "$bin/wgpu-msm" parity --sizes 16,20 --arith portable32 2>&1 | tail -3
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--sizes 16,20,22,24 --repeat 7 --ark-max 20)
echo "== bench ${args[*]}"
for round in 1 2; do
  for b in "$bin"/wgpu-msm*; do
    name=$(basename "$b")
    timeout 280 "$b" bench "${args[@]}" --json "$out/$name-r$round.json" > "$out/$name-r$round.txt" 2>&1
    echo "-- $name round $round (rc $?)"
    grep -E "^20[0-9]{2}-" "$out/$name-r$round.txt" | grep -v cluster
  done
done
