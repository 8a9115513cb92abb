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
mod group;
mod learn;
mod model;
pub mod partition;
mod remembered;
mod report;
mod resident;
mod run;
mod schedule;
mod worker;

pub use config::{ClusterConfig, Strategy};
pub use group::ClusterGroup;
pub use model::CostModel;
pub use report::{ClusterReport, WorkerReport, BASE_BYTES, SCALAR_BYTES};
pub use resident::{ClusterBases, ClusterScalars};
pub use worker::{CpuWorker, Worker};

use crate::config::{Arithmetic, MsmConfig};
use crate::device::Device;
use crate::error::{Error, Result};
use ark_ec::short_weierstrass::{Affine, Projective};
use model::Samples;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

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
    pub fn msm<C: ClusterGroup>(
        &self,
        bases: &[Affine<C>],
        scalars: &[C::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
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
    pub async fn msm_async<C: ClusterGroup>(
        &self,
        bases: &[Affine<C>],
        scalars: &[C::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
        Error::check_lengths(bases.len(), scalars.len())?;
        self.run(bases, scalars, cfg)
    }
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
    fn cluster_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Cluster>();
        check::<ClusterReport>();
    }
}
