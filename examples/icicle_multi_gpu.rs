//! ICICLE's multi-GPU MSM example, rebuilt on wgpu-msm's ICICLE-style vocabulary:
//! `device_count()`, then one thread per device that runs `run_on_device(i, ..)` and
//! computes an MSM of its own inputs on its active device, checked against arkworks.
//!
//! Run:    cargo run --release --example icicle_multi_gpu [-- LOG2_N]   (default 12)
//! Prints: the device count, then per device its index, name, MSM size, time and
//!         whether the result equals arkworks' `VariableBaseMSM::msm`; exits non-zero on
//!         a mismatch. On lavapipe the first MSM per device includes about a minute of
//!         shader compilation.

use ark_bn254::G1Projective;
use ark_ec::VariableBaseMSM;
use std::time::Instant;
use wgpu_msm::testing::{random_bases, random_scalars};
use wgpu_msm::{active_device, device_count, run_on_device, MsmConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init();
    let log_n: u32 = std::env::args()
        .nth(1)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(12);
    let n = 1usize << log_n;
    let count = device_count()?;
    println!("{count} device(s); one MSM of 2^{log_n} points per device");

    // ICICLE spawns one host thread per GPU and calls set_device in it; run_on_device
    // does exactly that (a thread whose active device is i).
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..count)
            .map(|i| {
                s.spawn(move || {
                    run_on_device(i, || -> wgpu_msm::Result<(String, f64, bool)> {
                        let dev = active_device()?;
                        let seed = 1000 + i as u64;
                        let bases = random_bases(n, 1024, seed);
                        let scalars = random_scalars(n, seed);
                        let t = Instant::now();
                        // The free function uses the thread's active device.
                        let got = wgpu_msm::msm(&bases, &scalars, &MsmConfig::default())?;
                        let secs = t.elapsed().as_secs_f64();
                        let want = G1Projective::msm(&bases, &scalars).expect("equal lengths");
                        Ok((format!("{dev:?}"), secs, got == want))
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("device thread panicked"))
            .collect()
    });

    let mut all_ok = true;
    for (i, r) in results.into_iter().enumerate() {
        let (name, secs, ok) = r??;
        all_ok &= ok;
        let verdict = if ok { "matches arkworks" } else { "MISMATCH" };
        println!("device {i}: {name}: 2^{log_n} points in {secs:.3} s, {verdict}");
    }
    if !all_ok {
        return Err("an MSM differed from arkworks".into());
    }
    Ok(())
}
