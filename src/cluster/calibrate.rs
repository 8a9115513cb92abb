//! Throughput measurement for [`Strategy::Weighted`](super::Strategy::Weighted): one
//! small MSM per worker, timed after a warm-up call that compiles its kernels.

use super::worker::Worker;
use crate::config::MsmConfig;
use crate::error::Result;
use ark_bn254::{Fr, G1Affine};
use std::sync::Arc;
use std::time::Instant;

/// Seed of the calibration inputs (any fixed value: only the timing matters).
const SEED: u64 = 0xCA11_B8A7_E000_0001;

/// Inputs of a calibration MSM of `n` points (64 distinct bases, repeated).
pub(crate) fn inputs(n: usize) -> (Vec<G1Affine>, Vec<Fr>) {
    let n = n.max(1);
    (
        crate::testing::random_bases(n, 64, SEED),
        crate::testing::random_scalars(n, SEED),
    )
}

/// Points per second of `worker` on an MSM of `bases.len()` points: a one-point call
/// first (so kernel compilation and first-use allocations are not timed), then the
/// timed call.
///
/// # Errors
/// The worker's error, from either call.
pub(crate) fn measure(
    worker: &dyn Worker,
    bases: &[G1Affine],
    scalars: &[Fr],
    cfg: &MsmConfig,
) -> Result<f64> {
    let _warm = worker.msm_chunk(&bases[..1], &scalars[..1], cfg)?;
    let t = Instant::now();
    let _timed = std::hint::black_box(worker.msm_chunk(bases, scalars, cfg)?);
    let s = t.elapsed().as_secs_f64().max(1e-9);
    Ok(bases.len() as f64 / s)
}

/// Measures every worker of `todo` at once, one thread each (devices are independent;
/// timing them in parallel also means each one is timed under the same host load).
pub(crate) fn measure_all(
    workers: &[Arc<dyn Worker>],
    todo: &[usize],
    n: usize,
    cfg: &MsmConfig,
) -> Vec<(usize, Result<f64>)> {
    let (bases, scalars) = inputs(n);
    std::thread::scope(|s| {
        let handles: Vec<_> = todo
            .iter()
            .map(|&i| {
                let (w, b, sc) = (workers[i].as_ref(), &bases, &scalars);
                (i, s.spawn(move || measure(w, b, sc, cfg)))
            })
            .collect();
        handles
            .into_iter()
            .map(|(i, h)| (i, h.join().unwrap_or(Err(crate::error::Error::Cancelled))))
            .collect()
    })
}
