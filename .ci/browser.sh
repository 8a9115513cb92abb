#!/usr/bin/env bash
# CI for the browser: installs the wasm target, wasm-bindgen-cli at the version of the
# wasm-bindgen crate in web/Cargo.lock, Chromium and chromedriver, then runs the
# wasm-bindgen tests of web/ in headless Chromium with WebGPU (SwiftShader where there is
# no GPU): the MSM (host, resident and batch calls; BN254 G1 and G2) against arkworks in wasm, the
# portable program, the byte API and the kernel checks; then checks the demo page the
# same way (one MSM against arkworks). Fails when the browser gives no WebGPU
# adapter. Run from anywhere: .ci/browser.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
export DEBIAN_FRONTEND=noninteractive

# The wasm-bindgen version the tests link; the CLI must be exactly it.
wb=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print }' web/Cargo.lock)
[ -n "$wb" ] || { echo "no wasm-bindgen in web/Cargo.lock" >&2; exit 1; }

rustup target add wasm32-unknown-unknown
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wb" ]; then
  cargo install wasm-bindgen-cli --version "$wb"
fi
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi
echo "$(chromium --version 2>/dev/null); $(chromedriver --version); wasm-bindgen $wb"

# The core library on its own for wasm32 (no help from web/'s features).
cargo check --lib --target wasm32-unknown-unknown

cd web
export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"
log=$(mktemp)
# The suite panics without an adapter; the grep also catches a run in which the test
# never ran (filtered out, or compiled away).
cargo test --target wasm32-unknown-unknown --test browser -- --nocapture 2>&1 | tee "$log"
for t in webgpu_adapter_appears msm_async_matches_arkworks resident_and_batch_match_arkworks \
  bn254_g2_msm_async_matches_arkworks portable_program_matches_arkworks \
  js_api_bytes_round_trip_and_malformed_input; do
  grep -q "^test $t \.\.\. ok" "$log" || {
    echo "FAIL: the browser test $t did not pass" >&2
    exit 1
  }
done

# The demo page, as a user opens it: build, bind, serve on 127.0.0.1, wait for its verdict.
cargo build --target wasm32-unknown-unknown --lib
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
wasm-bindgen --target web --out-dir pkg "$target_dir/wasm32-unknown-unknown/debug/wgpu_msm_web.wasm"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 "$port" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
sleep 1
# 2^10 points: the page's wasm is a debug build here (the tests' artifacts), in which
# arkworks is slow.
python3 screenshot.py "http://127.0.0.1:$port/?log2=10" "${BROWSER_SCREENSHOT:-$target_dir/page.png}"
