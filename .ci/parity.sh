#!/usr/bin/env bash
# The parity tests on one driver: `.ci/parity.sh lavapipe|swiftshader|gl`. Runs the
# GPU test binaries' parity subset (random and adversarial MSMs on both multiply paths
# where the driver has them, the 2^16 parity table, resident bases and scalars, batches,
# a cluster of two handles of the adapter, the build limit and default budget) with the
# driver selected by the environment, one test at a time, within
# CI_PARITY_TIMEOUT_S seconds (default 1500). Prints the share's wall time.
# See docs/drivers.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"

driver="${1:?usage: .ci/parity.sh lavapipe|swiftshader|gl}"
case "$driver" in
  lavapipe)
    icd=$(ls /usr/share/vulkan/icd.d/lvp_icd*.json | head -n1)
    env=(VK_ICD_FILENAMES="$icd" WGPU_BACKEND=vulkan WGPU_MSM_DEVICES=cpu,llvmpipe) ;;
  swiftshader)
    env=(VK_ICD_FILENAMES="${WGPU_MSM_SWIFTSHADER_ICD:-/usr/lib/chromium/vk_swiftshader_icd.json}"
         WGPU_BACKEND=vulkan WGPU_MSM_DEVICES=cpu,swiftshader) ;;
  gl)
    env=(WGPU_BACKEND=gl WGPU_MSM_DEVICES=cpu,llvmpipe) ;;
  *) echo "unknown driver $driver" >&2; exit 2 ;;
esac

# Test names (substrings) of tests/gpu.rs, tests/cluster.rs and tests/bounded.rs.
tests=(
  msm_random_sizes msm_adversarial cuda_parity_2_16 resident_and_async resident_scalars
  batch_and_cancellation
  gpu_two_devices_2_16 gpu_resident_bases_across_devices
  a_build_past_its_limit a_cluster_leaves_out stream_within_it
)
start=$SECONDS
env "${env[@]}" timeout "${CI_PARITY_TIMEOUT_S:-1500}" \
  cargo test --release --test gpu --test cluster --test bounded -- --test-threads=1 "${tests[@]}"
echo "CI: parity tests on $driver passed in $((SECONDS - start)) s"
