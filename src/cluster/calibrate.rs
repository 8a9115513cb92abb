//! Worker measurements: throughput for [`Strategy::Weighted`](super::Strategy::Weighted)
//! (one small MSM per worker) and the first samples of the cost model of the adaptive
//! [`Strategy::Dynamic`](super::Strategy::Dynamic) (two sizes), each timed after a
//! warm-up call that compiles the worker's kernels.

use super::model::Samples;
use super::worker::Worker;
use crate::config::MsmConfig;
use crate::error::Result;
use crate::time::Instant;
use ark_bn254::{Fr, G1Affine};
use std::sync::Arc;

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

/// How many times the calibration size a cost model's calibration may grow to.
pub(crate) const MODEL_GROWTH: usize = 64;

/// Seconds after which a cost model's calibration stops growing its MSMs.
const MODEL_STEP_S: f64 = 0.25;

/// Samples of `worker`'s cost model: a one-point call first (untimed, as in
/// [`measure`]), then MSMs from a quarter of `unit` points up, fourfold each (each size
/// the faster of two runs), until
/// one takes three times as long as the first (so the per-point cost shows above the
/// fixed cost, which dominates a GPU's small MSMs), takes MODEL_STEP_S, or would exceed
/// `bases`.
///
/// # Errors
/// The worker's error, from any call.
pub(crate) fn sample(
    worker: &dyn Worker,
    bases: &[G1Affine],
    scalars: &[Fr],
    cfg: &MsmConfig,
    unit: usize,
) -> Result<Samples> {
    let _warm = worker.msm_chunk(&bases[..1], &scalars[..1], cfg)?;
    let mut samples = Samples::default();
    let mut n = (unit / 4).clamp(1, bases.len());
    let mut first = None;
    loop {
        // The faster of two runs: a device's first MSM of a size also allocates.
        let mut secs = f64::MAX;
        for _ in 0..2 {
            let t = Instant::now();
            let _timed = std::hint::black_box(worker.msm_chunk(&bases[..n], &scalars[..n], cfg)?);
            secs = secs.min(t.elapsed().as_secs_f64());
        }
        samples.add(n, secs);
        let first = *first.get_or_insert(secs);
        if secs >= 3.0 * first || secs >= MODEL_STEP_S || 4 * n > bases.len() {
            return Ok(samples);
        }
        n *= 4;
    }
}

/// Runs `f(worker, bases, scalars)` on calibration inputs of `n` points for every
/// worker of `todo`: all at once, one thread each, when `parallel` (devices are
/// independent, and each is then timed under the same host load), else one after
/// another.
pub(crate) fn measure_all<T, F>(
    workers: &[Arc<dyn Worker>],
    todo: &[usize],
    n: usize,
    parallel: bool,
    f: F,
) -> Vec<(usize, Result<T>)>
where
    T: Send,
    F: Fn(&dyn Worker, &[G1Affine], &[Fr]) -> Result<T> + Sync,
{
    if todo.is_empty() {
        return Vec::new();
    }
    let (bases, scalars) = inputs(n);
    if !parallel {
        return todo
            .iter()
            .map(|&i| (i, f(workers[i].as_ref(), &bases, &scalars)))
            .collect();
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = todo
            .iter()
            .map(|&i| {
                let (w, b, sc, f) = (workers[i].as_ref(), &bases, &scalars, &f);
                (i, s.spawn(move || f(w, b, sc)))
            })
            .collect();
        handles
            .into_iter()
            .map(|(i, h)| (i, h.join().unwrap_or(Err(crate::error::Error::Cancelled))))
            .collect()
    })
}
