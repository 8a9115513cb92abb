//! The scheduler: one thread per worker (the caller's for the first, scoped ones for
//! the others) pulling ranges from its own queue and
//! then from a shared one, with failed chunks returned to the shared queue for the
//! surviving workers. Under the adaptive [`Strategy::Dynamic`](super::Strategy::Dynamic)
//! each worker cuts from the shared queue the piece its cost model says it finishes
//! together with the others (none when the others would finish everything sooner),
//! and every piece it completes refines its model.

use super::model::{self, CostModel, Samples};
use super::partition;
use super::report::WorkerReport;
use super::worker::Worker;
use super::ClusterGroup;
use crate::config::MsmConfig;
use crate::error::{Error, Result};
use crate::time::Instant;
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ff::Zero;
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// One piece of work: the MSM over a range of points, for every window or for a range
/// of windows (see [`MsmConfig::windows`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    pub points: Range<usize>,
    pub windows: Option<Range<u32>>,
}

impl Piece {
    /// Every window of `points`.
    pub fn points(points: Range<usize>) -> Piece {
        Piece {
            points,
            windows: None,
        }
    }
}

/// Who does what: pieces reserved for each worker (block strategies) and pieces any
/// worker may take (chunks under `Dynamic`, and failed workers' leftovers).
pub(crate) struct Assignment {
    /// Per worker, in cluster order.
    pub own: Vec<Vec<Piece>>,
    /// Taken by whichever worker asks first.
    pub shared: Vec<Piece>,
    /// Workers that take no part (their calibration failed); their ranges are shared.
    pub excluded: Vec<bool>,
    /// Whether a failed worker's range is cut into one piece per surviving worker
    /// before it is shared (for blocks; chunks are already small).
    pub resplit: bool,
    /// Cost-model samples (the adaptive `Dynamic`): shared pieces are cut to each
    /// worker's share of the points left. `None`: pieces are taken as queued.
    pub samples: Option<Learned>,
}

/// The cost-model samples of a cluster's workers, one set per hardware model (alike
/// workers share theirs, so that their models cannot drift apart: a worker given less
/// would pay its fixed costs over fewer points, look slower and be given less again).
#[derive(Clone, Debug)]
pub(crate) struct Learned {
    /// Each worker's entry in `samples`.
    pub group: Vec<usize>,
    /// Per hardware model; `None` where it has none (its calibration failed).
    pub samples: Vec<Option<Samples>>,
}

impl Learned {
    /// Worker `i`'s model.
    fn model(&self, i: usize) -> Option<CostModel> {
        self.samples[*self.group.get(i)?].as_ref()?.model()
    }
}

/// What one MSM's scheduling produced.
pub(crate) struct Outcome<C: ClusterGroup> {
    /// The sum, or why there is none.
    pub result: Result<Projective<C>>,
    /// One report per worker, in cluster order.
    pub reports: Vec<WorkerReport>,
    /// The adaptive mode's samples, with this MSM's pieces added.
    pub samples: Option<Learned>,
}

/// The adaptive mode's state: each worker's samples and the piece it holds.
struct Adaptive {
    learned: Learned,
    /// When the worker took the piece it holds, and the seconds its model gave it.
    busy: Vec<Option<(Instant, f64)>>,
    /// Workers that take no further part (failed, or excluded from the start).
    gone: Vec<bool>,
    /// The smallest piece a worker takes part with: `model::MIN_SHARE` of the MSM.
    min_points: usize,
}

impl Adaptive {
    /// Worker `i`'s share of `points` (it being idle, the others busy for what their
    /// current pieces have left by their models), and its model.
    fn share(&self, i: usize, points: usize) -> (usize, Option<CostModel>) {
        let workers: Vec<Option<(CostModel, f64)>> = (0..self.gone.len())
            .map(|j| {
                let m = self.learned.model(j)?;
                if self.gone[j] {
                    return None;
                }
                let left = match (j == i, self.busy[j]) {
                    (false, Some((since, secs))) => secs - since.elapsed().as_secs_f64(),
                    _ => 0.0,
                };
                Some((m, left.max(0.0)))
            })
            .collect();
        let m = workers[i].map(|(m, _)| m);
        (
            model::finish_together(points, self.min_points, &workers)[i],
            m,
        )
    }
}

struct Queues {
    own: Vec<VecDeque<Piece>>,
    shared: VecDeque<Piece>,
    adaptive: Option<Adaptive>,
    in_flight: usize,
    /// Workers still taking part.
    alive: usize,
    resplit: bool,
    /// An error about the input itself: every worker stops and the MSM returns it.
    fatal: Option<Error>,
    last_error: Option<Error>,
}

impl Queues {
    fn queued(&self) -> bool {
        !self.shared.is_empty() || self.own.iter().any(|q| !q.is_empty())
    }

    /// The shared piece worker `i` takes now: the front one, or under the adaptive
    /// mode its share of the shared points cut from the front (`None` when its share
    /// is nothing: the others finish sooner without it).
    fn take_shared(&mut self, i: usize) -> Option<Piece> {
        let Some(a) = self.adaptive.as_mut() else {
            return self.shared.pop_front();
        };
        let left: usize = self.shared.iter().map(|p| p.points.len()).sum();
        let (want, m) = a.share(i, left);
        if want == 0 {
            return None;
        }
        let mut p = self.shared.pop_front()?;
        if p.points.len() > want {
            let rest = Piece {
                points: p.points.start + want..p.points.end,
                windows: p.windows.clone(),
            };
            p.points.end = p.points.start + want;
            self.shared.push_front(rest);
        }
        a.busy[i] = Some((Instant::now(), m.map_or(0.0, |m| m.seconds(p.points.len()))));
        Some(p)
    }
}

struct Shared {
    q: Mutex<Queues>,
    cv: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queues> {
        // The lock is never held across worker code, so poisoning cannot leave the
        // queues half-updated; carry on with the data.
        self.q.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next piece for worker `i`, waiting while other workers still have pieces in
    /// flight (a failure would put them back). `None` when the MSM is over.
    fn next(&self, i: usize) -> Option<Piece> {
        let mut q = self.lock();
        loop {
            if q.fatal.is_some() {
                return None;
            }
            if let Some(r) = q.own[i].pop_front().or_else(|| q.take_shared(i)) {
                q.in_flight += 1;
                if q.adaptive.is_some() {
                    // Workers that took nothing weigh the points left again, against
                    // this worker busy now.
                    self.cv.notify_all();
                }
                return Some(r);
            }
            if q.in_flight == 0 && !q.queued() {
                return None;
            }
            q = self.cv.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Whether an error is about the input (so every worker would fail on it) rather than
/// about the worker. Rebases chunk-relative indices to the whole MSM.
fn input_error(e: &Error, chunk_start: usize) -> Option<Error> {
    match e {
        Error::PointNotOnCurve { index } => Some(Error::PointNotOnCurve {
            index: chunk_start + index,
        }),
        _ => None,
    }
}

/// Runs worker `i`'s loop; returns its partial sum and its report.
fn work<C: ClusterGroup>(
    sh: &Shared,
    i: usize,
    w: &dyn Worker,
    bases: &[Affine<C>],
    scalars: &[C::ScalarField],
    cfg: &MsmConfig,
) -> (Projective<C>, WorkerReport) {
    let mut sum = Projective::<C>::zero();
    let mut rep = WorkerReport {
        name: w.name(),
        ..Default::default()
    };
    while let Some(piece) = sh.next(i) {
        let r = piece.points.clone();
        let len = r.len();
        rep.bytes_moved += len as u64 * (C::ID.base_bytes() + C::ID.scalar_bytes());
        let piece_cfg = piece.windows.as_ref().map(|wr| MsmConfig {
            windows: Some(wr.clone()),
            ..cfg.clone()
        });
        let t = Instant::now();
        let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            C::msm_chunk(
                w,
                &bases[r.clone()],
                &scalars[r.clone()],
                piece_cfg.as_ref().unwrap_or(cfg),
            )
        }))
        .unwrap_or_else(|_| {
            log::error!("cluster worker {} panicked", rep.name);
            Err(Error::Cancelled)
        });
        let secs = t.elapsed().as_secs_f64();
        rep.busy_s += secs;
        let mut q = sh.lock();
        q.in_flight -= 1;
        if let Some(a) = q.adaptive.as_mut() {
            a.busy[i] = None;
            if res.is_ok() {
                let g = a.learned.group[i];
                let samples = a.learned.samples[g].get_or_insert_with(Samples::default);
                samples.add(len, secs);
            } else {
                a.gone[i] = true;
            }
        }
        match res {
            Ok(p) => {
                sum += p;
                rep.points += len;
                rep.chunks += 1;
                drop(q);
                sh.cv.notify_all();
            }
            Err(e) => {
                if let Some(fatal) = input_error(&e, r.start) {
                    q.fatal = Some(fatal);
                } else {
                    log::warn!(
                        "cluster worker {} failed on {piece:?}, dropping it from this MSM: {e}",
                        rep.name
                    );
                    rep.failures += 1;
                    rep.last_error = Some(e.to_string());
                    q.alive -= 1;
                    let mut back: Vec<Piece> = q.own[i].drain(..).collect();
                    back.insert(0, piece);
                    if q.resplit && q.alive > 1 {
                        let parts = q.alive;
                        back = back
                            .into_iter()
                            .flat_map(|b| {
                                let (start, windows) = (b.points.start, b.windows);
                                partition::even_blocks(b.points.len(), parts)
                                    .into_iter()
                                    .filter(|p| !p.is_empty())
                                    .map(move |p| Piece {
                                        points: start + p.start..start + p.end,
                                        windows: windows.clone(),
                                    })
                            })
                            .collect();
                    }
                    // To the front: leftovers of failures are redone before new chunks.
                    for b in back.into_iter().rev() {
                        q.shared.push_front(b);
                    }
                    q.last_error = Some(e);
                }
                drop(q);
                sh.cv.notify_all();
                break;
            }
        }
    }
    (sum, rep)
}

/// Runs one MSM under `plan`, the first worker on the calling thread and one scoped
/// thread for each other taking-part worker, and returns the
/// sum with one report per worker (excluded ones included, idle). Pieces with a range
/// of windows run with `cfg.window_bits`, which the caller fixes for them.
///
/// The result is exact whatever fails, or an error: the input error a worker found, or
/// [`Error::AllDevicesFailed`] with the last worker error when ranges were left with
/// no worker alive to take them.
pub(crate) fn run<C: ClusterGroup>(
    workers: &[Arc<dyn Worker>],
    bases: &[Affine<C>],
    scalars: &[C::ScalarField],
    cfg: &MsmConfig,
    plan: Assignment,
) -> Outcome<C> {
    // Ranges of a worker that takes no part go to everyone (else they would wait forever).
    let mut own: Vec<VecDeque<Piece>> = plan.own.into_iter().map(VecDeque::from).collect();
    let mut shared: VecDeque<Piece> = plan.shared.into();
    while own.len() > workers.len() {
        shared.extend(own.pop().into_iter().flatten());
    }
    own.resize_with(workers.len(), VecDeque::new);
    for (i, q) in own.iter_mut().enumerate() {
        if plan.excluded.get(i).copied().unwrap_or(false) {
            shared.extend(q.drain(..));
        }
    }
    let alive = (0..workers.len())
        .filter(|&i| !plan.excluded.get(i).copied().unwrap_or(false))
        .count();
    let total: usize = shared.iter().map(|p| p.points.len()).sum();
    let min_points = (model::MIN_SHARE * total as f64) as usize;
    let adaptive = plan.samples.map(|learned| Adaptive {
        min_points,
        busy: vec![None; workers.len()],
        gone: (0..workers.len())
            .map(|i| plan.excluded.get(i).copied().unwrap_or(false))
            .collect(),
        learned,
    });
    let sh = Shared {
        q: Mutex::new(Queues {
            own,
            shared,
            adaptive,
            in_flight: 0,
            alive,
            resplit: plan.resplit,
            fatal: None,
            last_error: None,
        }),
        cv: Condvar::new(),
    };
    let takes_part = |i: usize| !plan.excluded.get(i).copied().unwrap_or(false);
    let outcomes: Vec<(Projective<C>, WorkerReport)> = std::thread::scope(|s| {
        let handles: Vec<_> = workers
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let sh = &sh;
                (i > 0 && takes_part(i))
                    .then(|| s.spawn(move || work(sh, i, w.as_ref(), bases, scalars, cfg)))
            })
            .collect();
        // The first worker runs on the calling thread, which would only wait otherwise:
        // one thread fewer to start per MSM, which small MSMs notice.
        let mut first =
            takes_part(0).then(|| Ok(work(&sh, 0, workers[0].as_ref(), bases, scalars, cfg)));
        handles
            .into_iter()
            .zip(workers)
            .map(
                |(h, w)| match h.map(|h| h.join()).or_else(|| first.take()) {
                    Some(Ok(out)) => out,
                    // `work` catches panics of worker code; this is for completeness.
                    Some(Err(_)) => (
                        Projective::<C>::zero(),
                        WorkerReport {
                            name: w.name(),
                            failures: 1,
                            last_error: Some("panicked".into()),
                            ..Default::default()
                        },
                    ),
                    None => (
                        Projective::<C>::zero(),
                        WorkerReport {
                            name: w.name(),
                            ..Default::default()
                        },
                    ),
                },
            )
            .collect()
    });
    finish(sh, outcomes)
}

/// The MSM's outcome from the workers' partial sums and the queues they left.
fn finish<C: ClusterGroup>(sh: Shared, outcomes: Vec<(Projective<C>, WorkerReport)>) -> Outcome<C> {
    let mut q = sh.q.into_inner().unwrap_or_else(|e| e.into_inner());
    let reports: Vec<WorkerReport> = outcomes.iter().map(|(_, r)| r.clone()).collect();
    let samples = q.adaptive.take().map(|a| a.learned);
    let result = if let Some(e) = q.fatal {
        Err(e)
    } else if q.queued() || q.in_flight > 0 {
        let last = q.last_error.unwrap_or(Error::Cancelled);
        Err(Error::AllDevicesFailed(Box::new(last)))
    } else {
        Ok(outcomes.iter().map(|(p, _)| *p).sum())
    };
    Outcome {
        result,
        reports,
        samples,
    }
}
