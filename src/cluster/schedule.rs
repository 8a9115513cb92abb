//! The scheduler: one thread per worker (the caller's for the first, scoped ones for
//! the others) pulling ranges from its own queue and
//! then from a shared one, with failed chunks returned to the shared queue for the
//! surviving workers.

use super::partition;
use super::report::{WorkerReport, BASE_BYTES, SCALAR_BYTES};
use super::worker::Worker;
use crate::config::MsmConfig;
use crate::error::{Error, Result};
use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ff::Zero;
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

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
}

struct Queues {
    own: Vec<VecDeque<Piece>>,
    shared: VecDeque<Piece>,
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
            if let Some(r) = q.own[i].pop_front().or_else(|| q.shared.pop_front()) {
                q.in_flight += 1;
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
fn work(
    sh: &Shared,
    i: usize,
    w: &dyn Worker,
    bases: &[G1Affine],
    scalars: &[Fr],
    cfg: &MsmConfig,
) -> (G1Projective, WorkerReport) {
    let mut sum = G1Projective::zero();
    let mut rep = WorkerReport {
        name: w.name(),
        ..Default::default()
    };
    while let Some(piece) = sh.next(i) {
        let r = piece.points.clone();
        let len = r.len();
        rep.bytes_moved += len as u64 * (BASE_BYTES + SCALAR_BYTES);
        let piece_cfg = piece.windows.as_ref().map(|wr| MsmConfig {
            windows: Some(wr.clone()),
            ..cfg.clone()
        });
        let t = Instant::now();
        let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            w.msm_chunk(
                &bases[r.clone()],
                &scalars[r.clone()],
                piece_cfg.as_ref().unwrap_or(cfg),
            )
        }))
        .unwrap_or_else(|_| {
            log::error!("cluster worker {} panicked", rep.name);
            Err(Error::Cancelled)
        });
        rep.busy_s += t.elapsed().as_secs_f64();
        let mut q = sh.lock();
        q.in_flight -= 1;
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
pub(crate) fn run(
    workers: &[Arc<dyn Worker>],
    bases: &[G1Affine],
    scalars: &[Fr],
    cfg: &MsmConfig,
    plan: Assignment,
) -> (Result<G1Projective>, Vec<WorkerReport>) {
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
    let sh = Shared {
        q: Mutex::new(Queues {
            own,
            shared,
            in_flight: 0,
            alive,
            resplit: plan.resplit,
            fatal: None,
            last_error: None,
        }),
        cv: Condvar::new(),
    };
    let takes_part = |i: usize| !plan.excluded.get(i).copied().unwrap_or(false);
    let outcomes: Vec<(G1Projective, WorkerReport)> = std::thread::scope(|s| {
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
        // one thread fewer to start per MSM (0.1-0.5 ms at 2^14-2^18 on two H200s).
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
                        G1Projective::zero(),
                        WorkerReport {
                            name: w.name(),
                            failures: 1,
                            last_error: Some("panicked".into()),
                            ..Default::default()
                        },
                    ),
                    None => (
                        G1Projective::zero(),
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
fn finish(
    sh: Shared,
    outcomes: Vec<(G1Projective, WorkerReport)>,
) -> (Result<G1Projective>, Vec<WorkerReport>) {
    let q = sh.q.into_inner().unwrap_or_else(|e| e.into_inner());
    let reports: Vec<WorkerReport> = outcomes.iter().map(|(_, r)| r.clone()).collect();
    if let Some(e) = q.fatal {
        return (Err(e), reports);
    }
    if q.queued() || q.in_flight > 0 {
        let last = q.last_error.unwrap_or(Error::Cancelled);
        return (Err(Error::AllDevicesFailed(Box::new(last))), reports);
    }
    (Ok(outcomes.iter().map(|(p, _)| *p).sum()), reports)
}
