//! `wgpu-msm`: the main job. With no arguments it lists the devices, then runs and
//! verifies one 2^16 BN254 G1 MSM on each device (and on all of them together) and one
//! of every other supported group (BLS12-381 G1) on each device, and prints tables.
//! `list`, `bench`, `parity` and `transfer` are the other commands (`--help`); `run`,
//! `parity` and `bench` take `--curve bn254|bls12-381 --group g1|g2`.

#[cfg(not(target_arch = "wasm32"))]
mod cli;

/// The CLI is native only (the library builds for wasm32; see web/ for the browser).
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    // wgpu-core warns whenever MAPPABLE_PRIMARY_BUFFERS is enabled on a discrete GPU; we
    // enable it on purpose (the kernels read the upload buffers in place, which is the
    // faster path there, see docs/), so its instance-level warnings are hidden
    // unless RUST_LOG asks for them.
    let default = "warn,wgpu_core::instance=error";
    // Milliseconds in log lines: MSM events (allocations, submissions) are that apart.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(default))
        .format_timestamp_millis()
        .init();
    match cli::run() {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
