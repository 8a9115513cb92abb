//! Timing and checking: repeats after a warm-up, the arkworks reference, batch sets.

use super::BenchArgs;
use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use std::time::Instant;
use wgpu_msm::testing::parity_expected;
use wgpu_msm::{Error, MsmConfig, Result};

/// `c` with a per-stage profile asked for.
pub(super) fn profiled(c: &MsmConfig) -> MsmConfig {
    MsmConfig {
        profile: true,
        ..c.clone()
    }
}

/// One timed way of running the MSM; returns whether its result verified.
pub(super) type MsmFn<'a> = Box<dyn FnMut() -> Result<bool> + 'a>;

/// `k` scalar sets for a batch: set `c` is `scalars` times `c + 1`, so its MSM is the
/// reference times `c + 1` (verifiable at every size the reference covers).
pub(super) fn batch_sets(scalars: &[Fr], k: usize) -> Vec<Vec<Fr>> {
    (1..=k as u64)
        .map(|c| {
            let c = Fr::from(c);
            scalars.iter().map(|s| *s * c).collect()
        })
        .collect()
}

/// The median and the minimum of `v` (not empty).
pub(super) fn median_min(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0])
}

/// arkworks' MSM of the inputs.
pub(super) fn arkworks(bases: &[G1Affine], scalars: &[Fr]) -> Result<G1Projective> {
    G1Projective::msm(bases, scalars).map_err(|_| Error::InvalidConfig("arkworks msm".into()))
}

/// The expected MSM of 2^`lg` parity inputs: the CUDA parity vector where there is one,
/// else one untimed arkworks run, so every result is verified at any size.
pub(super) fn reference(lg: u32, bases: &[G1Affine], scalars: &[Fr]) -> Result<G1Affine> {
    match parity_expected(lg) {
        Some(w) => Ok(w),
        None => Ok(arkworks(bases, scalars)?.into_affine()),
    }
}

pub(super) fn today() -> String {
    let out = std::process::Command::new("date").arg("+%Y-%m-%d").output();
    out.ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(String::new, |s| s.trim().to_string())
}

/// Times `f` `args.repeat` times after a first call and a warm-up (`args.warmup_ms`);
/// returns (median ms, min ms, all results verified). `f` runs the work and says whether its results
/// verified. With `--samples`, prints the times in the order they ran under `label`.
pub(super) fn time<F: FnMut() -> Result<bool>>(
    args: &BenchArgs,
    label: &dyn Fn() -> String,
    mut f: F,
) -> Result<(f64, f64, bool)> {
    let first = Instant::now();
    let mut ok = f()?;
    log::debug!(
        "{} first call: {:.2} ms",
        label(),
        first.elapsed().as_secs_f64() * 1e3
    );
    // The warm-up counts from the end of the first call: that call may compile the
    // kernels for seconds while the GPU idles and lowers its clocks, so the warm-up
    // must still come after it.
    let warm = Instant::now();
    while warm.elapsed().as_millis() < u128::from(args.warmup_ms) {
        ok &= f()?;
    }
    let mut ms = Vec::with_capacity(args.repeat);
    for i in 0..args.repeat.max(1) {
        let t = Instant::now();
        ok &= f()?;
        ms.push(t.elapsed().as_secs_f64() * 1e3);
        log::debug!("{} repeat {i}: {:.2} ms", label(), ms[i]);
    }
    if args.samples {
        let all: Vec<String> = ms.iter().map(|t| format!("{t:.2}")).collect();
        eprintln!("samples {}: {}", label(), all.join(" "));
    }
    let (med, min) = median_min(&mut ms);
    Ok((med, min, ok))
}
