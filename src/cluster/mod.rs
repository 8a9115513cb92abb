//! A cluster: one MSM split across several devices (and optionally the CPU), with the
//! partial sums added on the host.
//!
//! Each worker runs its chunks on its own thread; how points are divided is the
//! [`Strategy`]: even blocks, blocks weighted by measured throughput, or pieces pulled
//! from a shared queue, cut to each worker's learned cost ([`CostModel`]); by default
//! ([`Strategy::Auto`]) even blocks for alike devices and the shared queue for unlike
//! ones. When a worker fails, its unfinished chunk goes back to the
//! queue, the other workers redo it and the failed worker sits out the rest of that MSM,
//! so the result stays exact as long as one worker survives. Every call leaves a
//! [`ClusterReport`] behind ([`Cluster::last_report`]).
//!
//! ```no_run
//! let cluster = wgpu_msm::Cluster::all()?;
//! let bases = wgpu_msm::testing::random_bases(1 << 16, 1024, 1);
//! let scalars = wgpu_msm::testing::random_scalars(1 << 16, 1);
//! let r = cluster.msm(&bases, &scalars, &wgpu_msm::MsmConfig::default())?;
//! println!("{}", cluster.last_report().expect("a report after an MSM"));
//! # Ok::<(), wgpu_msm::Error>(())
//! ```

mod calibrate;
mod config;
mod model;
pub mod partition;
mod remembered;
mod report;
mod resident;
mod schedule;
mod worker;

pub use config::{ClusterConfig, Strategy};
pub use model::CostModel;
pub use report::{ClusterReport, WorkerReport, BASE_BYTES, SCALAR_BYTES};
pub use resident::{ClusterBases, ClusterScalars};
pub use worker::{CpuWorker, Worker};

use crate::config::{Arithmetic, MsmConfig};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::msm::plan::{
    default_window_bits, window_bits_in, Layout, WIDE_WINDOW_FROM, WIDE_WINDOW_MIN_PASS,
};
use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ff::Zero;
use model::Samples;
use schedule::{Assignment, Learned, Piece};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// Several workers (GPUs, optionally the CPU) computing one MSM together.
///
/// `Send + Sync`: one cluster may serve MSMs from many threads at once; each call has
/// its own queues and threads, and the devices underneath accept concurrent work.
pub struct Cluster {
    devices: Vec<Device>,
    workers: Vec<Arc<dyn Worker>>,
    config: ClusterConfig,
    /// Measured points per second, per (worker uid, arithmetic).
    throughput: Mutex<HashMap<(u64, Arithmetic), f64>>,
    /// Cost-model samples per (worker hardware model, arithmetic), for the adaptive
    /// `Dynamic` (see `schedule::Learned`).
    samples: Mutex<HashMap<(String, Arithmetic), Samples>>,
    last: Mutex<Option<ClusterReport>>,
    /// The worker that runs the next MSM too small to split (see
    /// [`ClusterConfig::min_split_points`]), modulo the worker count.
    next_whole: std::sync::atomic::AtomicUsize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing panics while these locks are held; a poisoned one still holds valid data.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Cluster {
    /// Every selected device ([`Device::all`]), default configuration.
    ///
    /// # Errors
    /// [`Error::NoDevice`] when no device could be opened.
    pub fn all() -> Result<Cluster> {
        Cluster::new(Device::all()?)
    }

    /// A cluster of the given devices (a device given twice is simply used by two
    /// threads).
    ///
    /// # Errors
    /// [`Error::NoDevice`] when `devices` is empty.
    pub fn new(devices: Vec<Device>) -> Result<Cluster> {
        if devices.is_empty() {
            return Err(Error::NoDevice {
                hint: "Cluster::new was given an empty device list".into(),
            });
        }
        let workers = devices
            .iter()
            .map(|d| Arc::new(d.clone()) as Arc<dyn Worker>)
            .collect();
        Ok(Cluster::build(devices, workers))
    }

    /// A cluster of arbitrary workers, e.g. [`CpuWorker`]s or test doubles.
    /// [`Cluster::devices`] is empty for it.
    ///
    /// # Errors
    /// [`Error::NoDevice`] when `workers` is empty.
    pub fn from_workers(workers: Vec<Arc<dyn Worker>>) -> Result<Cluster> {
        if workers.is_empty() {
            return Err(Error::NoDevice {
                hint: "Cluster::from_workers was given no workers".into(),
            });
        }
        Ok(Cluster::build(Vec::new(), workers))
    }

    fn build(devices: Vec<Device>, workers: Vec<Arc<dyn Worker>>) -> Cluster {
        Cluster {
            devices,
            workers,
            config: ClusterConfig::default(),
            throughput: Mutex::new(HashMap::new()),
            samples: Mutex::new(HashMap::new()),
            last: Mutex::new(None),
            next_whole: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Adds the host CPU (arkworks' MSM) as one more worker.
    pub fn with_cpu_worker(self) -> Cluster {
        self.with_worker(Arc::new(CpuWorker))
    }

    /// Adds a worker.
    pub fn with_worker(mut self, worker: Arc<dyn Worker>) -> Cluster {
        self.workers.push(worker);
        self
    }

    /// Replaces the configuration.
    pub fn with_config(mut self, config: ClusterConfig) -> Cluster {
        self.config = config;
        self
    }

    /// Sets the strategy (builder style).
    pub fn with_strategy(mut self, strategy: Strategy) -> Cluster {
        self.config.strategy = strategy;
        self
    }

    /// Sets the strategy.
    pub fn set_strategy(&mut self, strategy: Strategy) {
        self.config.strategy = strategy;
    }

    /// Replaces the configuration.
    pub fn set_config(&mut self, config: ClusterConfig) {
        self.config = config;
    }

    /// The configuration.
    pub fn config(&self) -> &ClusterConfig {
        &self.config
    }

    /// The GPU devices of the cluster (empty for [`Cluster::from_workers`]).
    pub fn devices(&self) -> &[Device] {
        &self.devices
    }

    /// Every worker, in the order of the report's entries.
    pub fn workers(&self) -> &[Arc<dyn Worker>] {
        &self.workers
    }

    /// The report of the most recent MSM to finish (successful or not), if any.
    pub fn last_report(&self) -> Option<ClusterReport> {
        lock(&self.last).clone()
    }

    /// The strategy MSMs use: the configured one, with [`Strategy::Auto`] resolved to
    /// `Even` when all workers share one [`Worker::model`] and to `Dynamic` otherwise.
    pub fn resolved_strategy(&self) -> Strategy {
        match self.config.strategy {
            Strategy::Auto => {
                let first = self.workers.first().map(|w| w.model());
                if self.workers.iter().all(|w| Some(w.model()) == first) {
                    Strategy::Even
                } else {
                    Strategy::Dynamic
                }
            }
            s => s,
        }
    }

    /// Cached throughputs (points per second) of each worker for `arithmetic`, `None`
    /// where not measured yet.
    pub fn throughputs(&self, arithmetic: Arithmetic) -> Vec<Option<f64>> {
        let map = lock(&self.throughput);
        self.workers
            .iter()
            .map(|w| map.get(&(w.uid(), arithmetic)).copied())
            .collect()
    }

    /// Measures every worker's throughput now (again, if cached) with an MSM of
    /// `calibration_points`, and caches the results (beyond the cluster too, for workers
    /// that [remember their costs](Worker::remember_costs)).
    ///
    /// # Errors
    /// [`Error::AllDevicesFailed`] when no worker could be measured.
    pub fn calibrate(&self, cfg: &MsmConfig) -> Result<Vec<Option<f64>>> {
        let todo: Vec<usize> = (0..self.workers.len()).collect();
        let mut map = lock(&self.throughput);
        let n = self.config.calibration_points;
        let results = calibrate::measure_all(&self.workers, &todo, n, true, |w, b, s| {
            calibrate::measure(w, b, s, cfg)
        });
        let mut last = None;
        let mut out = vec![None; self.workers.len()];
        for (i, r) in results {
            match r {
                Ok(t) => {
                    map.insert((self.workers[i].uid(), cfg.arithmetic), t);
                    out[i] = Some(t);
                }
                Err(e) => last = Some(e),
            }
        }
        drop(map);
        self.remember();
        match last {
            Some(e) if out.iter().all(Option::is_none) => Err(Error::AllDevicesFailed(Box::new(e))),
            _ => Ok(out),
        }
    }

    /// Blocking MSM across the cluster; see [`Cluster::msm_async`].
    ///
    /// # Errors
    /// As [`Cluster::msm_async`].
    pub fn msm(&self, bases: &[G1Affine], scalars: &[Fr], cfg: &MsmConfig) -> Result<G1Projective> {
        pollster::block_on(self.msm_async(bases, scalars, cfg))
    }

    /// `sum_i scalars[i] * bases[i]`, split across the workers by the configured
    /// strategy, as a future.
    ///
    /// The work runs on scoped threads, one per worker. Because the inputs are borrowed,
    /// those threads cannot outlive the call: the future does all the work when first
    /// polled, and the polling thread waits for them. On an async runtime, poll it where
    /// blocking is allowed (e.g. tokio's `spawn_blocking`).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] when the lengths differ; [`Error::PointNotOnCurve`]
    /// (index in `bases`) for an invalid base; [`Error::AllDevicesFailed`] with the last
    /// worker error when every worker failed before the work was done.
    pub async fn msm_async(
        &self,
        bases: &[G1Affine],
        scalars: &[Fr],
        cfg: &MsmConfig,
    ) -> Result<G1Projective> {
        Error::check_lengths(bases.len(), scalars.len())?;
        self.run(bases, scalars, cfg)
    }

    fn run(&self, bases: &[G1Affine], scalars: &[Fr], cfg: &MsmConfig) -> Result<G1Projective> {
        let start = Instant::now();
        let n = bases.len();
        let k = self.workers.len();
        let mut report = ClusterReport {
            strategy: self.resolved_strategy(),
            points: n,
            workers: self
                .workers
                .iter()
                .map(|w| WorkerReport {
                    name: w.name(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        if n == 0 {
            *lock(&self.last) = Some(report);
            return Ok(G1Projective::zero());
        }
        let mut excluded = vec![false; k];
        let mut samples = None;
        let mut cfg = std::borrow::Cow::Borrowed(cfg);
        let whole = self.config.strategy == Strategy::Auto
            && report.strategy == Strategy::Even
            && k > 1
            && n < self.config.min_split_points;
        report.whole = whole;
        let (own, shared) = match report.strategy {
            Strategy::Even if whole => {
                // Too small to split: all of it on the next worker in turn.
                let i = self
                    .next_whole
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                    % k;
                let mut own = vec![Vec::new(); k];
                own[i].push(Piece::points(0..n));
                (own, Vec::new())
            }
            Strategy::Auto | Strategy::Even => (single(partition::even_blocks(n, k)), Vec::new()),
            Strategy::Dynamic if self.config.chunk_points.is_some() => {
                let c = self.config.chunk_points.unwrap_or(n).max(1);
                report.chunk_points = c;
                let chunks = partition::chunks(n, c).into_iter().map(Piece::points);
                (vec![Vec::new(); k], chunks.collect())
            }
            Strategy::Dynamic => {
                // Adaptive: every point in one shared range, each worker cutting its
                // share as its cost model gives it (calibrated once per hardware model,
                // or recalled: `remembered`).
                let got = match self.learned(&cfg, &mut report) {
                    Ok(s) => s,
                    Err(e) => return self.failed(report, start, e),
                };
                // A worker whose calibration just failed sits out (its model may have
                // come from another worker of its kind).
                for (i, (x, w)) in excluded.iter_mut().zip(&mut report.workers).enumerate() {
                    if w.failures == 0 {
                        w.cost_model = got.samples[got.group[i]].and_then(|s| s.model());
                    }
                    *x = w.cost_model.is_none();
                }
                samples = Some(got);
                (vec![Vec::new(); k], vec![Piece::points(0..n)])
            }
            Strategy::Windows => {
                // Windows of the whole scalar, which every kind of worker computes (CPU
                // workers through `window_scalars`).
                let (c, shares) = window_split(&cfg, n, k, false);
                cfg.to_mut().window_bits = Some(c);
                cfg.to_mut().glv = Some(false);
                let own = shares
                    .into_iter()
                    .map(|w| {
                        w.map(|w| Piece {
                            points: 0..n,
                            windows: Some(w),
                        })
                        .into_iter()
                        .collect()
                    })
                    .collect();
                (own, Vec::new())
            }
            Strategy::Weighted => {
                let weights = match self.weights(&cfg, &mut report) {
                    Ok(w) => w,
                    Err(e) => return self.failed(report, start, e),
                };
                for (x, w) in excluded.iter_mut().zip(&weights) {
                    *x = w.is_none();
                }
                let w: Vec<f64> = weights.iter().map(|w| w.unwrap_or(0.0)).collect();
                (single(partition::weighted_blocks(n, &w)), Vec::new())
            }
        };
        let largest = own
            .iter()
            .flatten()
            .chain(&shared)
            .map(|p| p.points.len())
            .max()
            .unwrap_or(0);
        if !whole && k > 1 && report.strategy != Strategy::Windows && widened(&cfg, largest) {
            // Several devices stream one MSM's host bases at once, and the host's uploads
            // pace them: where a device alone would take the wide windows of a large MSM
            // (`plan::window_bits_for`), its shares keep the width of their passes of
            // 2^20 points and more, whose cheaper accumulation a paced device does not
            // show while their twice as long reduction ends the MSM (two H200s, 2^24
            // one-shot over four calls: 55.7-57.3 ms with 17 bits, median of the six
            // runs 56.7, against 55.5-57.4 and 55.8 with 16; BENCHMARKS.md v21). Bases
            // resident on the devices (`Cluster::msm_with`) keep the device's own width
            // (17 bits there took 52.1-53.1 ms against 53.3-53.7).
            cfg.to_mut().window_bits = Some(default_window_bits(WIDE_WINDOW_MIN_PASS));
        }
        // Blocks of a failed worker are cut up for the survivors; chunks are small already,
        // and the adaptive mode cuts pieces to fit the survivors anyway.
        let resplit = report.strategy != Strategy::Dynamic;
        let plan = Assignment {
            own,
            shared,
            excluded,
            resplit,
            samples,
        };
        let out = schedule::run(&self.workers, bases, scalars, &cfg, plan);
        if let Some(learned) = out.samples {
            let mut map = lock(&self.samples);
            for (w, &g) in self.workers.iter().zip(&learned.group) {
                if let Some(s) = learned.samples[g] {
                    let key = (w.model(), cfg.arithmetic);
                    if w.remember_costs() {
                        remembered::put_samples(key.clone(), s);
                    }
                    map.insert(key, s);
                }
            }
        }
        let result = out.result;
        for (r, new) in report.workers.iter_mut().zip(out.reports) {
            let (failures, last_error) = (
                r.failures + new.failures,
                new.last_error.or(r.last_error.take()),
            );
            *r = WorkerReport {
                failures,
                last_error,
                throughput: r.throughput,
                cost_model: r.cost_model,
                ..new
            };
        }
        report.wall_s = start.elapsed().as_secs_f64();
        *lock(&self.last) = Some(report);
        result
    }

    /// `e`, leaving `report` (timed from `start`) as the last report.
    fn failed(&self, mut report: ClusterReport, start: Instant, e: Error) -> Result<G1Projective> {
        report.wall_s = start.elapsed().as_secs_f64();
        *lock(&self.last) = Some(report);
        Err(e)
    }

    /// Each worker's throughput for `cfg`, measuring those not cached (in parallel).
    /// `None` for a worker whose measurement failed; it takes no part in this MSM.
    fn weights(&self, cfg: &MsmConfig, report: &mut ClusterReport) -> Result<Vec<Option<f64>>> {
        let key = |w: &dyn Worker| (w.uid(), cfg.arithmetic);
        self.recall(
            &self.throughput,
            key,
            cfg.arithmetic,
            remembered::throughput,
        );
        let n = self.config.calibration_points;
        let out = self.measured(&self.throughput, key, true, report, n, |w, b, s| {
            calibrate::measure(w, b, s, cfg)
        })?;
        for (w, t) in report.workers.iter_mut().zip(&out) {
            w.throughput = *t;
        }
        Ok(out)
    }

    /// The cost-model samples of the workers' hardware models for `cfg` (see
    /// [`model`]), calibrating those that have none yet, one worker per model and one
    /// at a time (a worker calibrated while another loads the host, e.g. arkworks on
    /// every core, would look slower than it is; where one fails, the next of its
    /// model is tried). `None` for a model none of whose workers could be calibrated.
    fn learned(&self, cfg: &MsmConfig, report: &mut ClusterReport) -> Result<Learned> {
        let key = |w: &dyn Worker| (w.model(), cfg.arithmetic);
        self.recall(&self.samples, key, cfg.arithmetic, remembered::samples);
        let unit = self.config.calibration_points;
        let n = unit.saturating_mul(calibrate::MODEL_GROWTH);
        let per_worker = self.measured(&self.samples, key, false, report, n, |w, b, s| {
            calibrate::sample(w, b, s, cfg, unit)
        })?;
        let mut models: Vec<String> = Vec::new();
        let mut learned = Learned {
            group: Vec::new(),
            samples: Vec::new(),
        };
        for (w, s) in self.workers.iter().zip(per_worker) {
            let m = w.model();
            let g = models.iter().position(|x| *x == m).unwrap_or_else(|| {
                models.push(m);
                learned.samples.push(None);
                models.len() - 1
            });
            // The model's samples, from any of its workers that did not just fail.
            learned.samples[g] = learned.samples[g].or(s);
            learned.group.push(g);
        }
        Ok(learned)
    }

    /// Fills `map` (under `key`) with what is remembered beyond this cluster (`recalled`,
    /// by hardware model) for the workers that remember their costs and have no entry.
    fn recall<K, T>(
        &self,
        map: &Mutex<HashMap<K, T>>,
        key: impl Fn(&dyn Worker) -> K,
        arithmetic: Arithmetic,
        recalled: impl Fn(&remembered::Key) -> Option<T>,
    ) where
        K: Eq + std::hash::Hash,
    {
        let mut map = lock(map);
        for w in self.workers.iter().filter(|w| w.remember_costs()) {
            if let std::collections::hash_map::Entry::Vacant(e) = map.entry(key(w.as_ref())) {
                if let Some(v) = recalled(&(w.model(), arithmetic)) {
                    e.insert(v);
                }
            }
        }
    }

    /// Keeps what this cluster measured about the workers that remember their costs
    /// beyond it (see [`Worker::remember_costs`]) and writes it to the cache directory:
    /// after a calibration (what each MSM refines goes to the process's store as it
    /// comes, and to the file when the cluster is dropped).
    fn remember(&self) {
        let remembers = |model: &str| {
            self.workers
                .iter()
                .any(|w| w.remember_costs() && w.model() == model)
        };
        for (k, s) in lock(&self.samples).iter() {
            if remembers(&k.0) {
                remembered::put_samples(k.clone(), *s);
            }
        }
        for (&(uid, arithmetic), &t) in lock(&self.throughput).iter() {
            let w = self.workers.iter().find(|w| w.uid() == uid);
            if let Some(w) = w.filter(|w| w.remember_costs()) {
                remembered::put_throughput((w.model(), arithmetic), t);
            }
        }
        remembered::save();
    }

    /// The cached value of `map` for each worker (under `key`), measuring with
    /// `measure` (on `n` calibration inputs; every missing key at once when `parallel`,
    /// else one after another) those not cached. The time measuring takes goes to
    /// `report.calibration_s`; a failed measurement is recorded in `report`, leaves the
    /// worker's entry `None` and hands its key to the next worker that has it;
    /// [`Error::AllDevicesFailed`] when every entry is `None` after a failure.
    fn measured<K, T, F>(
        &self,
        map: &Mutex<HashMap<K, T>>,
        key: impl Fn(&dyn Worker) -> K,
        parallel: bool,
        report: &mut ClusterReport,
        n: usize,
        measure: F,
    ) -> Result<Vec<Option<T>>>
    where
        K: Eq + std::hash::Hash,
        T: Copy + Send,
        F: Fn(&dyn Worker, &[G1Affine], &[Fr]) -> Result<T> + Sync,
    {
        // Held while measuring, so concurrent first calls measure once, not once each.
        let mut map = lock(map);
        let key = |i: usize| key(self.workers[i].as_ref());
        let mut tried = vec![false; self.workers.len()];
        let mut last = None;
        let t = Instant::now();
        loop {
            // One worker per missing key (a device given twice, or a hardware model for
            // the cost models, is measured once); where it fails, the next one of that
            // key in the next round.
            let mut seen = std::collections::HashSet::new();
            let todo: Vec<usize> = (0..self.workers.len())
                .filter(|&i| !tried[i] && !map.contains_key(&key(i)) && seen.insert(key(i)))
                .collect();
            if todo.is_empty() {
                break;
            }
            for &i in &todo {
                tried[i] = true;
            }
            for (i, r) in calibrate::measure_all(&self.workers, &todo, n, parallel, &measure) {
                match r {
                    Ok(t) => {
                        map.insert(key(i), t);
                    }
                    Err(e) => {
                        log::warn!(
                            "calibrating {} failed, leaving it out: {e}",
                            self.workers[i].name()
                        );
                        let w = &mut report.workers[i];
                        w.failures += 1;
                        w.last_error = Some(e.to_string());
                        last = Some(e);
                    }
                }
            }
        }
        // A worker whose measurement failed sits this MSM out, whatever its key holds.
        let out: Vec<Option<T>> = (0..self.workers.len())
            .map(|i| match report.workers[i].failures {
                0 => map.get(&key(i)).copied(),
                _ => None,
            })
            .collect();
        drop(map);
        if tried.iter().any(|&x| x) {
            report.calibration_s += t.elapsed().as_secs_f64();
            self.remember();
        }
        match last {
            Some(e) if out.iter().all(Option::is_none) => Err(Error::AllDevicesFailed(Box::new(e))),
            _ => Ok(out),
        }
    }
}

/// One range of points per worker, as per-worker queues.
fn single(blocks: Vec<std::ops::Range<usize>>) -> Vec<Vec<Piece>> {
    blocks
        .into_iter()
        .map(|b| {
            if b.is_empty() {
                Vec::new()
            } else {
                vec![Piece::points(b)]
            }
        })
        .collect()
}

/// Whether a device given `share` points of a one-shot MSM under `cfg` would take the
/// wide windows of a large MSM (`plan::window_bits_for`): no width set, a share of
/// [`WIDE_WINDOW_FROM`] points or more, and passes not capped below
/// [`WIDE_WINDOW_MIN_PASS`] by the chunk size or a memory budget (a budget is left to
/// the device, which knows what fits).
fn widened(cfg: &MsmConfig, share: usize) -> bool {
    cfg.window_bits.is_none()
        && cfg.memory_budget.is_none()
        && share >= WIDE_WINDOW_FROM
        && cfg.chunk_size.is_none_or(|c| c >= WIDE_WINDOW_MIN_PASS)
}

/// How an MSM of `n` points splits by windows among `workers`: one window width for all
/// of them (`cfg`'s, else the default for `n`), so that the ranges add up, and each
/// worker's range, as even as can be (`None` for a worker left without one when there
/// are more workers than windows). With `glv`, the windows of the GLV halves (a device's
/// width for 2n entries: 8 windows of 16 bits from 2^15 points).
pub(crate) fn window_split(
    cfg: &MsmConfig,
    n: usize,
    workers: usize,
    glv: bool,
) -> (u32, Vec<Option<std::ops::Range<u32>>>) {
    let (layout, c) = match glv {
        true => (Layout::Glv, window_bits_in(Layout::Glv, n, n)),
        false => (Layout::Points, default_window_bits(n)),
    };
    let c = cfg.window_bits.unwrap_or(c);
    let shares = partition::even_blocks(layout.window_count(c) as usize, workers)
        .into_iter()
        .map(|r| (!r.is_empty()).then_some(r.start as u32..r.end as u32))
        .collect();
    (c, shares)
}

impl Drop for Cluster {
    /// Writes what the cluster's MSMs refined about its workers' costs to the cache
    /// directory (see [`Worker::remember_costs`]), when it changed.
    fn drop(&mut self) {
        if self.workers.iter().any(|w| w.remember_costs()) {
            remembered::save();
        }
    }
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self.workers.iter().map(|w| w.name()).collect();
        f.debug_struct("Cluster")
            .field("workers", &names)
            .field("config", &self.config)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_shot_splits_narrow_only_what_a_device_would_widen() {
        let big = WIDE_WINDOW_FROM;
        assert!(widened(&MsmConfig::default(), big));
        assert!(!widened(&MsmConfig::default(), big - 1), "a small share");
        let chunked = |c| MsmConfig {
            chunk_size: Some(c),
            ..Default::default()
        };
        assert!(widened(&chunked(WIDE_WINDOW_MIN_PASS), big));
        assert!(
            !widened(&chunked(1 << 12), big),
            "small passes keep their width"
        );
        let set = MsmConfig {
            window_bits: Some(13),
            ..Default::default()
        };
        assert!(!widened(&set, big), "a width the caller chose");
        let budget = MsmConfig {
            memory_budget: Some(1 << 30),
            ..Default::default()
        };
        assert!(!widened(&budget, big), "a budget is left to the device");
    }

    #[test]
    fn cluster_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Cluster>();
        check::<ClusterReport>();
    }
}
