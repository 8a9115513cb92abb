//! One MSM across the cluster: the points (or windows) divided by the strategy, each
//! worker's share run on its own thread by the scheduler, and the partial sums added.

use super::partition;
use super::report::{ClusterReport, WorkerReport};
use super::schedule::{self, Assignment, Piece};
use super::{lock, remembered, Cluster, ClusterGroup, Strategy};
use crate::config::MsmConfig;
use crate::curve::GroupId;
use crate::error::{Error, Result};
use crate::msm::plan::{
    default_window_bits, window_bits_in, Layout, WIDE_WINDOW_FROM, WIDE_WINDOW_MIN_PASS,
};
use crate::time::Instant;
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ff::Zero;

impl Cluster {
    pub(super) fn run<C: ClusterGroup>(
        &self,
        bases: &[Affine<C>],
        scalars: &[C::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
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
            return Ok(Projective::<C>::zero());
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
                let (c, shares) = window_split(C::ID, &cfg, n, k, false, false);
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
            // show while their twice as long reduction ends the MSM. Bases resident on
            // the devices (`Cluster::msm_with`) keep the device's own width, where the
            // wider windows pay off (see docs/).
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
    fn failed<T>(&self, mut report: ClusterReport, start: Instant, e: Error) -> Result<T> {
        report.wall_s = start.elapsed().as_secs_f64();
        *lock(&self.last) = Some(report);
        Err(e)
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

/// How an MSM of `n` points of `group` splits by windows among `workers`: one window width for all
/// of them (`cfg`'s, else the default for `n`, capped by
/// [`GroupId::max_default_window_bits`] where the bases are `resident`), so that the ranges add up, and each
/// worker's range, as even as can be (`None` for a worker left without one when there
/// are more workers than windows). With `glv`, the windows of the GLV halves (a device's
/// width for 2n entries: 8 windows of 16 bits from 2^15 points).
pub(crate) fn window_split(
    group: GroupId,
    cfg: &MsmConfig,
    n: usize,
    workers: usize,
    glv: bool,
    resident: bool,
) -> (u32, Vec<Option<std::ops::Range<u32>>>) {
    let (layout, c) = match glv {
        true => (Layout::Glv, window_bits_in(group, Layout::Glv, n, n)),
        false => (Layout::Points, default_window_bits(n)),
    };
    let cap = match resident {
        true => group.max_default_window_bits(n, glv),
        false => u32::MAX,
    };
    let c = cfg.window_bits.unwrap_or(c.min(cap));
    let shares = partition::even_blocks(layout.window_count_for(group, c) as usize, workers)
        .into_iter()
        .map(|r| (!r.is_empty()).then_some(r.start as u32..r.end as u32))
        .collect();
    (c, shares)
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
}
