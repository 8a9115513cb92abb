//! What a cluster learns about its workers: throughputs for the weighted strategy and
//! cost-model samples for the dynamic one, measured on first use (in parallel),
//! recalled from and remembered to the cache directory.

use super::report::ClusterReport;
use super::schedule::Learned;
use super::{calibrate, lock, remembered, Cluster, Worker};
use crate::config::{Arithmetic, MsmConfig};
use crate::error::{Error, Result};
use crate::time::Instant;
use ark_bn254::{Fr, G1Affine};
use std::collections::HashMap;
use std::sync::Mutex;

impl Cluster {
    /// Each worker's throughput for `cfg`, measuring those not cached (in parallel).
    /// `None` for a worker whose measurement failed; it takes no part in this MSM.
    pub(super) fn weights(
        &self,
        cfg: &MsmConfig,
        report: &mut ClusterReport,
    ) -> Result<Vec<Option<f64>>> {
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
    pub(super) fn learned(&self, cfg: &MsmConfig, report: &mut ClusterReport) -> Result<Learned> {
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
    pub(super) fn remember(&self) {
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
