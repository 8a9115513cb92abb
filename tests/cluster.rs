//! The multi-device scheduler.
//!
//! Most tests use fake workers (arkworks on the CPU, workers that fail on their k-th
//! chunk, workers that sleep per point) so the scheduling logic is tested fast and
//! without a GPU. The `gpu_` tests run a cluster of two logical devices opened on the
//! first adapter (lavapipe in CI) and compare with arkworks; they FAIL when no adapter
//! exists. Run only them with `cargo test --test cluster gpu_`.

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::VariableBaseMSM;
use ark_ff::Zero;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use wgpu_msm::testing::{random_bases, random_scalars};
use wgpu_msm::{Cluster, ClusterConfig, CpuWorker, Device, Error, MsmConfig, Strategy, Worker};

/// arkworks' MSM on a one-thread pool of its own, so that the fake workers' compute time
/// does not depend on what other tests run on the global rayon pool meanwhile (the
/// timing tests below compare the workers' busy times).
fn reference(b: &[G1Affine], s: &[Fr]) -> G1Projective {
    let msm = || G1Projective::msm(b, s).expect("equal lengths");
    match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => pool.install(msm),
        Err(_) => msm(),
    }
}

fn inputs(n: usize, seed: u64) -> (Vec<G1Affine>, Vec<Fr>) {
    (
        random_bases(n, n.clamp(1, 1024), seed),
        random_scalars(n, seed),
    )
}

/// Arkworks on the CPU with its own uid; counts calls, may fail on its k-th call (1-based,
/// calibration calls included), may sleep per point, may check bases are on the curve.
struct Fake {
    /// One thread of its own for arkworks: on rayon's global pool a fake's few points
    /// could wait behind other tests' large MSMs, and its timing (which the adaptive
    /// tests compare) would follow the load of a 2-core machine instead of its sleeps.
    own_thread: rayon::ThreadPool,
    uid: u64,
    calls: AtomicUsize,
    /// The call (counting from 1) that fails; 0 for none.
    fail_on: AtomicUsize,
    fail_always: bool,
    sleep_per_point: Duration,
    check_curve: bool,
    /// `Worker::model`: fakes of one model share a cost model (default: the name).
    model: Option<&'static str>,
}

impl Fake {
    fn new(uid: u64) -> Fake {
        Fake {
            own_thread: rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .expect("a thread for the fake"),
            uid,
            calls: AtomicUsize::new(0),
            fail_on: AtomicUsize::new(0),
            fail_always: false,
            sleep_per_point: Duration::ZERO,
            check_curve: false,
            model: None,
        }
    }
    fn failing_on(uid: u64, k: usize) -> Fake {
        Fake {
            fail_on: AtomicUsize::new(k),
            ..Fake::new(uid)
        }
    }
    fn broken(uid: u64) -> Fake {
        Fake {
            fail_always: true,
            ..Fake::new(uid)
        }
    }
    fn slow(uid: u64, per_point: Duration) -> Fake {
        Fake {
            sleep_per_point: per_point,
            ..Fake::new(uid)
        }
    }
}

impl Worker for Fake {
    fn name(&self) -> String {
        format!("fake{}", self.uid)
    }
    fn uid(&self) -> u64 {
        self.uid
    }
    fn model(&self) -> String {
        self.model.map_or_else(|| self.name(), str::to_string)
    }
    fn msm_chunk(
        &self,
        bases: &[G1Affine],
        scalars: &[Fr],
        cfg: &MsmConfig,
    ) -> wgpu_msm::Result<G1Projective> {
        let call = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        if self.fail_always || self.fail_on.load(Ordering::SeqCst) == call {
            return Err(Error::Gpu {
                context: format!("fake{} call {call}", self.uid),
                message: "injected".into(),
            });
        }
        if self.check_curve {
            if let Some(i) = bases.iter().position(|b| !b.is_on_curve()) {
                return Err(Error::PointNotOnCurve { index: i });
            }
        }
        std::thread::sleep(self.sleep_per_point * bases.len() as u32);
        // A piece of a split by windows: only those windows (Strategy::Windows).
        self.own_thread
            .install(|| match (&cfg.windows, cfg.window_bits) {
                (Some(w), Some(c)) => Ok(reference(
                    bases,
                    &wgpu_msm::msm::window_scalars(scalars, c, w.clone()),
                )),
                _ => Ok(reference(bases, scalars)),
            })
    }
}

fn cluster_of(workers: Vec<Arc<dyn Worker>>, cfg: ClusterConfig) -> Cluster {
    Cluster::from_workers(workers)
        .expect("non-empty")
        .with_config(cfg)
}

fn fakes(k: usize) -> Vec<Arc<dyn Worker>> {
    (0..k as u64)
        .map(|u| Arc::new(Fake::new(100 + u)) as Arc<dyn Worker>)
        .collect()
}

/// How many times the points are handed out under `strategy` with `workers` workers
/// taking part: once, or once per worker for a split by windows.
fn copies(strategy: Strategy, workers: usize) -> usize {
    if strategy == Strategy::Windows {
        workers
    } else {
        1
    }
}

/// A config that splits even tiny inputs (for Dynamic: about 7 chunks).
fn splitting(strategy: Strategy, n: usize) -> ClusterConfig {
    ClusterConfig {
        strategy,
        chunk_points: Some(n.div_ceil(7).max(1)),
        calibration_points: 64,
        ..Default::default()
    }
}

/// Every strategy splitting even tiny inputs ([`splitting`]), and the adaptive
/// `Dynamic` (pieces cut by cost models, calibrated on 64 points).
fn configs(n: usize) -> Vec<(Strategy, ClusterConfig)> {
    let mut out: Vec<_> = Strategy::ALL
        .into_iter()
        .map(|st| (st, splitting(st, n)))
        .collect();
    out.push((
        Strategy::Dynamic,
        ClusterConfig {
            chunk_points: None,
            ..splitting(Strategy::Dynamic, n)
        },
    ));
    out
}

#[test]
fn split_then_merge_equals_unsplit() {
    for (seed, n) in [(11u64, 1usize), (12, 2), (13, 3), (14, 1000), (15, 1 << 16)] {
        let (b, s) = inputs(n, seed);
        let want = reference(&b, &s);
        for (strategy, cfg) in configs(n) {
            let adaptive = cfg.chunk_points.is_none();
            let c = cluster_of(fakes(3), cfg);
            let got = c.msm(&b, &s, &MsmConfig::default()).expect("no failures");
            assert_eq!(got, want, "{strategy:?} n={n} seed={seed}");
            let r = c.last_report().expect("report");
            assert_eq!(r.strategy, strategy);
            assert_eq!(r.points, n);
            // A split by windows gives every worker every point (and a third of the
            // windows here).
            let copies = copies(strategy, 3);
            assert_eq!(
                r.workers.iter().map(|w| w.points).sum::<usize>(),
                copies * n,
                "{strategy:?} n={n}: {r:?}"
            );
            assert_eq!(
                r.bytes_moved(),
                96 * (copies * n) as u64,
                "{strategy:?} n={n}"
            );
            assert_eq!(r.failures(), 0);
            let chunks: usize = r.workers.iter().map(|w| w.chunks).sum();
            match strategy {
                // Alike workers, cut to measure: about one piece each.
                Strategy::Dynamic if adaptive => {
                    assert!((1..=6).contains(&chunks), "n={n}: {r}");
                    assert_eq!(r.chunk_points, 0);
                    assert!(r.workers.iter().all(|w| w.cost_model.is_some()), "{r}");
                }
                Strategy::Dynamic => assert_eq!(chunks, n.div_ceil(n.div_ceil(7)), "n={n}"),
                Strategy::Even | Strategy::Auto => assert_eq!(chunks, n.min(3), "n={n}"),
                Strategy::Windows => assert_eq!(chunks, 3, "n={n}"),
                Strategy::Weighted => {
                    assert!((1..=3).contains(&chunks), "n={n}: {chunks}");
                    assert!(
                        r.workers
                            .iter()
                            .all(|w| w.throughput.is_some_and(|t| t > 0.0)),
                        "{r:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn default_dynamic_is_adaptive_with_a_cpu_worker() {
    let (b, s) = inputs(20_000, 21);
    let want = reference(&b, &s);
    let c = Cluster::from_workers(vec![Arc::new(CpuWorker)])
        .unwrap()
        .with_worker(Arc::new(Fake::new(7)));
    assert_eq!(c.config().strategy, Strategy::Auto, "Auto is the default");
    assert_eq!(
        c.config().chunk_points,
        None,
        "pieces cut to measure by default"
    );
    assert_eq!(
        c.resolved_strategy(),
        Strategy::Dynamic,
        "unlike workers: Dynamic"
    );
    for call in 0..2 {
        assert_eq!(
            c.msm(&b, &s, &MsmConfig::default()).unwrap(),
            want,
            "seed 21, call {call}"
        );
        let r = c.last_report().unwrap();
        assert_eq!(r.strategy, Strategy::Dynamic);
        assert_eq!(r.chunk_points, 0, "no fixed chunks");
        assert_eq!(r.workers.iter().map(|w| w.points).sum::<usize>(), 20_000);
        assert!(r.workers.iter().all(|w| w.cost_model.is_some()), "{r}");
        // Calibrated on the first call only (a warm-up and growing timed MSMs per worker).
        assert_eq!(r.calibration_s > 0.0, call == 0, "call {call}: {r}");
        assert!(r.wall_s >= r.calibration_s, "{r}");
    }
}

/// Seconds `alone` takes for the MSM of `b` and `s` (checked against arkworks).
fn time_alone(alone: &Cluster, b: &[G1Affine], s: &[Fr]) -> f64 {
    let t = Instant::now();
    assert_eq!(
        alone.msm(b, s, &MsmConfig::default()).unwrap(),
        reference(b, s)
    );
    t.elapsed().as_secs_f64()
}

/// Fake workers `fast` and `slow` (sleeping that long per point), the time the fast one
/// alone takes for `n` points, and an Auto cluster of both (calibrated on 100 points).
/// Sleeps dominate the fakes' time (arkworks adds ~10 us a point, more when other tests
/// load the cores), so the timings hold on a busy 2-core machine.
fn fast_and_slow(fast: Duration, slow: Duration, n: usize, seed: u64) -> (Cluster, f64) {
    let (b, s) = inputs(n, seed);
    let alone = Cluster::from_workers(vec![Arc::new(Fake::slow(810, fast))]).unwrap();
    let alone_s = time_alone(&alone, &b, &s);
    let both = cluster_of(
        vec![
            Arc::new(Fake::slow(811, slow)),
            Arc::new(Fake::slow(810, fast)),
        ],
        ClusterConfig {
            calibration_points: 100,
            ..Default::default()
        },
    );
    assert_eq!(both.resolved_strategy(), Strategy::Dynamic);
    (both, alone_s)
}

#[test]
fn dynamic_never_waits_for_a_far_slower_worker() {
    // 50x slower: with fixed chunks of an eighth the slow worker's one chunk would take
    // 6x the fast worker's whole MSM. Cut to measure, it takes what it finishes in time.
    let n = 2000;
    let (b, s) = inputs(n, 83);
    let want = reference(&b, &s);
    let (c, alone_s) = fast_and_slow(
        Duration::from_micros(100),
        Duration::from_micros(5000),
        n,
        83,
    );
    for call in 0..3 {
        assert_eq!(
            c.msm(&b, &s, &MsmConfig::default()).unwrap(),
            want,
            "seed 83 call {call}"
        );
        let r = c.last_report().unwrap();
        let work_s = r.wall_s - r.calibration_s;
        assert!(
            work_s < 1.5 * alone_s + 0.03,
            "call {call}: {work_s:.3} s against {alone_s:.3} s for the fast worker alone: {r}"
        );
        assert!(r.workers[0].points < n / 10, "call {call}: {r}");
        assert!(r.workers[0].busy_s < 1.5 * alone_s + 0.03, "{r}");
    }
}

#[test]
fn dynamic_uses_a_moderately_slower_worker() {
    // 3x slower: together a quarter sooner than the fast worker alone (ideally 0.75x).
    let n = 600;
    let (b, s) = inputs(n, 84);
    let want = reference(&b, &s);
    let fast = Duration::from_micros(1000);
    let (c, mut alone_s) = fast_and_slow(fast, Duration::from_micros(3000), n, 84);
    // The fast worker alone is timed again after each call and compared with the mean
    // of the times around it: on a 2-core machine whose other tests compile shaders,
    // a time taken seconds earlier can be under different load.
    let alone = Cluster::from_workers(vec![Arc::new(Fake::slow(810, fast))]).unwrap();
    for call in 0..2 {
        assert_eq!(
            c.msm(&b, &s, &MsmConfig::default()).unwrap(),
            want,
            "seed 84"
        );
        let after = time_alone(&alone, &b, &s);
        let alone_s = std::mem::replace(&mut alone_s, after).midpoint(after);
        let r = c.last_report().unwrap();
        let slow = r.workers[0].points;
        assert!(
            (n / 8..=n * 3 / 8).contains(&slow),
            "call {call}: the slow worker's share {slow} of {n}: {r}"
        );
        let work_s = r.wall_s - r.calibration_s;
        assert!(
            work_s < 0.9 * alone_s,
            "call {call}: {work_s:.3} s against {alone_s:.3} s alone: {r}"
        );
    }
}

#[test]
fn dynamic_adaptive_survives_a_failing_worker() {
    let n = 3000;
    let (b, s) = inputs(n, 85);
    let want = reference(&b, &s);
    // Three fakes of one model (one shared cost model, so alike workers get equal
    // shares whatever the timing noise), the failing one first: it is the one
    // calibrated for its model.
    // Failing in calibration (call 2, the first timed MSM after the warm-up): the next
    // fake of its model is calibrated instead, and the failed one sits the MSM out.
    // Failing on its first piece (after a first MSM calibrated the model): the piece
    // goes to the others.
    let alike = |uid, fail_on| Fake {
        model: Some("fake"),
        ..Fake::failing_on(uid, fail_on)
    };
    for in_calibration in [true, false] {
        let failing = Arc::new(alike(220, 0));
        let c = cluster_of(
            vec![
                failing.clone(),
                Arc::new(alike(221, 0)),
                Arc::new(alike(222, 0)),
            ],
            ClusterConfig {
                strategy: Strategy::Dynamic,
                calibration_points: 64,
                ..Default::default()
            },
        );
        if in_calibration {
            failing.fail_on.store(2, Ordering::SeqCst);
        } else {
            assert_eq!(c.msm(&b, &s, &MsmConfig::default()).unwrap(), want);
            let r = c.last_report().unwrap();
            assert!(
                r.workers.iter().all(|w| w.points > 0),
                "alike workers all take part: {r}"
            );
            let next = failing.calls.load(Ordering::SeqCst) + 1;
            failing.fail_on.store(next, Ordering::SeqCst);
        }
        let got = c.msm(&b, &s, &MsmConfig::default());
        assert_eq!(got.as_ref().ok(), Some(&want), "seed 85: {got:?}");
        let r = c.last_report().unwrap();
        let ctx = format!("in calibration: {in_calibration}: {r}");
        assert_eq!(
            r.workers.iter().map(|w| w.points).sum::<usize>(),
            n,
            "{ctx}"
        );
        assert_eq!(r.workers[0].failures, 1, "{ctx}");
        assert_eq!(r.workers[0].points, 0, "{ctx}");
        assert!(r.workers[1..].iter().all(|w| w.points > 0), "{ctx}");
        assert_eq!(r.workers[0].cost_model.is_none(), in_calibration, "{ctx}");
        if !in_calibration {
            assert!(
                r.bytes_moved() > 96 * n as u64,
                "the failed piece sent twice: {ctx}"
            );
        }
        assert_eq!(c.msm(&b, &s, &MsmConfig::default()).unwrap(), want);
        let r = c.last_report().unwrap();
        assert_eq!(r.failures(), 0, "{r}");
        assert!(r.workers.iter().all(|w| w.points > 0), "all back in: {r}");
    }
}

#[test]
fn cpu_workers_split_by_windows() {
    // The CPU worker honours a range of windows (through window_scalars), with the
    // window width the cluster fixes or the one the config gives.
    let (b, s) = inputs(3000, 23);
    let want = reference(&b, &s);
    let c = Cluster::from_workers(vec![Arc::new(CpuWorker), Arc::new(CpuWorker)])
        .unwrap()
        .with_strategy(Strategy::Windows);
    for cfg in [
        MsmConfig::default(),
        MsmConfig {
            window_bits: Some(7),
            ..Default::default()
        },
    ] {
        assert_eq!(c.msm(&b, &s, &cfg).unwrap(), want, "{cfg:?}, seed 23");
        let r = c.last_report().unwrap();
        assert_eq!(r.strategy, Strategy::Windows);
        assert!(r.workers.iter().all(|w| w.points == 3000), "{r}");
    }
    // A range of windows without a width is a configuration error, not a wrong sum.
    let bad = MsmConfig {
        windows: Some(0..3),
        ..Default::default()
    };
    assert!(matches!(
        CpuWorker.msm_chunk(&b, &s, &bad),
        Err(Error::InvalidConfig(_))
    ));
}

#[test]
fn auto_is_even_for_alike_workers() {
    let (b, s) = inputs(999, 22);
    let c = Cluster::from_workers(vec![
        Arc::new(CpuWorker),
        Arc::new(CpuWorker),
        Arc::new(CpuWorker),
    ])
    .unwrap()
    .with_config(ClusterConfig {
        min_split_points: 0,
        ..Default::default()
    });
    assert_eq!(c.resolved_strategy(), Strategy::Even);
    assert_eq!(
        c.msm(&b, &s, &MsmConfig::default()).unwrap(),
        reference(&b, &s),
        "seed 22"
    );
    let r = c.last_report().unwrap();
    assert_eq!(r.strategy, Strategy::Even);
    assert!(
        r.workers.iter().all(|w| w.points == 333 && w.chunks == 1),
        "{r}"
    );
}

/// Under Auto, alike workers and an MSM below `min_split_points`: each MSM runs whole on
/// one worker, the next one each time; at the threshold it splits evenly again.
#[test]
fn auto_runs_small_msms_whole_on_one_worker_in_turn() {
    let c = cluster_of(
        vec![
            Arc::new(CpuWorker),
            Arc::new(CpuWorker),
            Arc::new(CpuWorker),
        ],
        ClusterConfig {
            min_split_points: 1000,
            ..Default::default()
        },
    );
    let mut took = Vec::new();
    for (seed, n) in [(31u64, 1usize), (32, 7), (33, 999), (34, 500)] {
        let (b, s) = inputs(n, seed);
        let got = c.msm(&b, &s, &MsmConfig::default()).unwrap();
        assert_eq!(got, reference(&b, &s), "n={n} seed={seed}");
        let r = c.last_report().unwrap();
        assert_eq!(r.strategy, Strategy::Even);
        assert!(r.whole && r.imbalance() == 1.0, "n={n}: {r}");
        let busy: Vec<usize> = (0..3).filter(|&i| r.workers[i].points > 0).collect();
        assert_eq!(busy.len(), 1, "n={n}: {r}");
        assert_eq!(
            (r.workers[busy[0]].points, r.workers[busy[0]].chunks),
            (n, 1)
        );
        took.push(busy[0]);
    }
    assert_eq!(
        took,
        vec![took[0], (took[0] + 1) % 3, (took[0] + 2) % 3, took[0]]
    );
    let (b, s) = inputs(1000, 35);
    assert_eq!(
        c.msm(&b, &s, &MsmConfig::default()).unwrap(),
        reference(&b, &s),
        "seed 35"
    );
    let r = c.last_report().unwrap();
    assert!(!r.whole && r.workers.iter().all(|w| w.chunks == 1), "{r}");
}

#[test]
fn worker_failing_on_kth_chunk_is_replaced() {
    let n = 5000;
    let (b, s) = inputs(n, 31);
    let want = reference(&b, &s);
    for strategy in Strategy::ALL {
        // Weighted calls each worker twice to calibrate, so its first real chunk is call 3.
        let first_chunk = if strategy == Strategy::Weighted { 3 } else { 1 };
        for k in [first_chunk, first_chunk + 1] {
            let failing = Arc::new(Fake::failing_on(200, k));
            let workers: Vec<Arc<dyn Worker>> = vec![
                Arc::new(Fake::new(201)),
                failing.clone(),
                Arc::new(Fake::new(202)),
            ];
            let c = cluster_of(workers, splitting(strategy, n));
            let got = c.msm(&b, &s, &MsmConfig::default());
            assert_eq!(
                got.as_ref().ok(),
                Some(&want),
                "{strategy:?} fail on {k}, seed 31: {got:?}"
            );
            let r = c.last_report().unwrap();
            assert_eq!(
                r.workers.iter().map(|w| w.points).sum::<usize>(),
                copies(strategy, 3) * n,
                "{strategy:?} k={k}"
            );
            // Block strategies give one chunk per worker: a second call never comes. With
            // the dynamic queue the others may drain it before the failing worker asks
            // again, so whether call k came is read from the worker itself.
            let reached = if strategy == Strategy::Dynamic {
                failing.calls.load(Ordering::SeqCst) >= k
            } else {
                k == first_chunk
            };
            assert!(
                reached || k > first_chunk,
                "{strategy:?}: first chunk never asked"
            );
            if reached {
                assert_eq!(r.workers[1].failures, 1, "{strategy:?} k={k}: {r:?}");
                assert!(r.workers[1]
                    .last_error
                    .as_deref()
                    .unwrap_or("")
                    .contains("injected"));
                assert!(
                    r.bytes_moved() > 96 * (copies(strategy, 3) * n) as u64,
                    "the failed chunk was sent twice"
                );
            }
            assert_eq!(r.failures(), usize::from(reached), "{strategy:?} k={k}");
            if strategy != Strategy::Dynamic && reached {
                // The failed block is cut in one piece per survivor: 2 blocks + 2 pieces.
                let chunks: usize = r.workers.iter().map(|w| w.chunks).sum();
                assert_eq!(chunks, 4, "{strategy:?} k={k}: {r}");
            }
        }
    }
}

#[test]
fn only_one_survivor_still_exact() {
    let n = 3000;
    let (b, s) = inputs(n, 41);
    let want = reference(&b, &s);
    for strategy in Strategy::ALL {
        let workers: Vec<Arc<dyn Worker>> = vec![
            Arc::new(Fake::broken(300)),
            Arc::new(Fake::new(301)),
            Arc::new(Fake::broken(302)),
        ];
        let c = cluster_of(workers, splitting(strategy, n));
        assert_eq!(
            c.msm(&b, &s, &MsmConfig::default()).unwrap(),
            want,
            "{strategy:?} seed 41"
        );
        let r = c.last_report().unwrap();
        assert_eq!(
            r.workers[1].points,
            copies(strategy, 3) * n,
            "{strategy:?}: {r:?}"
        );
        assert_eq!(r.failures(), 2);
    }
}

#[test]
fn all_workers_failing_is_all_devices_failed() {
    let (b, s) = inputs(500, 51);
    for strategy in Strategy::ALL {
        let workers: Vec<Arc<dyn Worker>> = (0..3)
            .map(|u| Arc::new(Fake::broken(400 + u)) as Arc<dyn Worker>)
            .collect();
        let c = cluster_of(workers, splitting(strategy, 500));
        match c.msm(&b, &s, &MsmConfig::default()) {
            Err(Error::AllDevicesFailed(inner)) => {
                assert!(
                    matches!(*inner, Error::Gpu { .. }),
                    "{strategy:?}: inner {inner:?}"
                );
            }
            other => panic!("{strategy:?}: expected AllDevicesFailed, got {other:?}"),
        }
        let r = c.last_report().unwrap();
        assert!(
            r.workers.iter().all(|w| w.failures == 1),
            "{strategy:?}: {r:?}"
        );
    }
    // Failing late (second chunk) still ends with every worker gone and the error.
    let workers: Vec<Arc<dyn Worker>> = (0..2)
        .map(|u| Arc::new(Fake::failing_on(410 + u, 2)) as Arc<dyn Worker>)
        .collect();
    let c = cluster_of(
        workers,
        ClusterConfig {
            chunk_points: Some(10),
            ..Default::default()
        },
    );
    let got = c.msm(&b, &s, &MsmConfig::default());
    assert!(matches!(got, Err(Error::AllDevicesFailed(_))), "{got:?}");
    // Single-shot failures of a worker: the same cluster works again on the next call.
    assert_eq!(
        c.msm(&b, &s, &MsmConfig::default()).unwrap(),
        reference(&b, &s),
        "seed 51"
    );
}

#[test]
fn invalid_base_is_reported_with_its_global_index() {
    let (mut b, s) = inputs(1000, 61);
    let off = G1Affine::new_unchecked(b[777].x, b[777].x);
    assert!(!off.is_on_curve());
    b[777] = off;
    let workers: Vec<Arc<dyn Worker>> = (0..3)
        .map(|u| {
            Arc::new(Fake {
                check_curve: true,
                ..Fake::new(500 + u)
            }) as Arc<dyn Worker>
        })
        .collect();
    let c = cluster_of(
        workers,
        ClusterConfig {
            chunk_points: Some(100),
            ..Default::default()
        },
    );
    let got = c.msm(&b, &s, &MsmConfig::default());
    assert!(
        matches!(got, Err(Error::PointNotOnCurve { index: 777 })),
        "{got:?}"
    );
}

#[test]
fn empty_and_mismatched_inputs() {
    let counting = Arc::new(Fake::new(600));
    let c = Cluster::from_workers(vec![counting.clone()]).unwrap();
    assert_eq!(
        c.msm(&[], &[], &MsmConfig::default()).unwrap(),
        G1Projective::zero()
    );
    assert_eq!(
        counting.calls.load(Ordering::SeqCst),
        0,
        "n = 0 must not touch workers"
    );
    assert_eq!(c.last_report().unwrap().points, 0);
    let (b, s) = inputs(3, 62);
    let got = c.msm(&b, &s[..2], &MsmConfig::default());
    assert!(
        matches!(
            got,
            Err(Error::LengthMismatch {
                bases: 3,
                scalars: 2
            })
        ),
        "{got:?}"
    );
    assert_eq!(counting.calls.load(Ordering::SeqCst), 0);
    assert!(matches!(
        Cluster::new(Vec::new()),
        Err(Error::NoDevice { .. })
    ));
    assert!(Cluster::from_workers(Vec::new()).is_err());
}

#[test]
fn eight_threads_share_one_cluster() {
    let fixed = Strategy::ALL.map(|st| (st, Some(256)));
    for (strategy, chunk_points) in fixed.into_iter().chain([(Strategy::Dynamic, None)]) {
        let c = cluster_of(
            fakes(3),
            ClusterConfig {
                strategy,
                chunk_points,
                calibration_points: 64,
                ..Default::default()
            },
        );
        std::thread::scope(|sc| {
            let hs: Vec<_> = (0..8u64)
                .map(|t| {
                    let c = &c;
                    sc.spawn(move || {
                        let seed = 700 + t;
                        let n = 1500 + 97 * t as usize;
                        let (b, s) = inputs(n, seed);
                        let got =
                            pollster::block_on(c.msm_async(&b, &s, &MsmConfig::default())).unwrap();
                        assert_eq!(
                            got,
                            reference(&b, &s),
                            "{strategy:?} thread {t} seed {seed}"
                        );
                    })
                })
                .collect();
            for h in hs {
                h.join().expect("thread passed");
            }
        });
        assert!(c.last_report().is_some());
    }
}

#[test]
fn strategies_balance_unequal_workers() {
    // Worker 0 sleeps 50x longer per point than worker 1: sleeping keeps this robust on a
    // loaded machine (a sleep lasts at least its time, and at 5 ms a point it outweighs
    // the arkworks work each fake worker also does, even on busy cores).
    let n = 400;
    let (b, s) = inputs(n, 81);
    let want = reference(&b, &s);
    let mk = || -> Vec<Arc<dyn Worker>> {
        vec![
            Arc::new(Fake::slow(800, Duration::from_micros(5000))),
            Arc::new(Fake::slow(801, Duration::from_micros(100))),
        ]
    };
    let cfg = |strategy| ClusterConfig {
        strategy,
        chunk_points: Some(10),
        calibration_points: 200,
        ..Default::default()
    };

    let even = cluster_of(mk(), cfg(Strategy::Even));
    assert_eq!(even.msm(&b, &s, &MsmConfig::default()).unwrap(), want);
    let r = even.last_report().unwrap();
    assert_eq!((r.workers[0].points, r.workers[1].points), (200, 200));
    assert!(
        r.imbalance() > 1.4,
        "even split over unequal workers is imbalanced: {r}"
    );
    assert!(
        r.imbalance() <= 2.0 + 1e-9,
        "max/mean of two is at most 2: {r}"
    );
    assert!(r.wall_s >= r.workers[0].busy_s, "{r}");
    let even_imbalance = r.imbalance();

    let weighted = cluster_of(mk(), cfg(Strategy::Weighted));
    assert_eq!(weighted.msm(&b, &s, &MsmConfig::default()).unwrap(), want);
    let r = weighted.last_report().unwrap();
    assert!(r.calibration_s >= 0.2, "{r}");
    assert!(
        r.workers[1].points > 3 * r.workers[0].points,
        "weighted: {r}"
    );
    // Markedly better balanced than the even split (about 2.0). Not an absolute bound:
    // each fake call also runs arkworks, whose cost varies with the host's cores and
    // load (a 32-core host measured 1.4+ here while 2 cores stay near 1.1).
    assert!(
        r.imbalance() < even_imbalance - 0.3,
        "weighted against even {even_imbalance:.2}: {r}"
    );
    let t = weighted.throughputs(Default::default());
    assert!(t[1].unwrap() > 3.0 * t[0].unwrap(), "{t:?}");
    // Cached: the second call does not calibrate again.
    assert_eq!(weighted.msm(&b, &s, &MsmConfig::default()).unwrap(), want);
    let r = weighted.last_report().unwrap();
    // The first calibration slept 200 points x 5 ms in worker 0; a cached one sleeps none.
    assert!(r.calibration_s < 0.1, "cached calibration: {r}");

    let dynamic = cluster_of(mk(), cfg(Strategy::Dynamic));
    assert_eq!(dynamic.msm(&b, &s, &MsmConfig::default()).unwrap(), want);
    let r = dynamic.last_report().unwrap();
    assert!(
        r.workers[1].chunks > 3 * r.workers[0].chunks,
        "dynamic: {r}"
    );
    assert!(r.imbalance() < 1.4, "dynamic: {r}");

    let json = serde_json::to_string(&r).unwrap();
    assert!(
        json.contains("\"strategy\":\"Dynamic\"") && json.contains("\"busy_s\""),
        "{json}"
    );
}

// ---------------------------------------------------------------- GPU (lavapipe) tests

/// Two logical devices on the first adapter, shared by the GPU tests (each logical
/// device compiles its kernels once, which takes about a minute on lavapipe).
fn gpu_pair() -> Vec<Device> {
    static PAIR: OnceLock<Result<Vec<Device>, String>> = OnceLock::new();
    let r = PAIR.get_or_init(|| {
        let first = Device::all().map_err(|e| e.to_string())?.remove(0);
        let second = first.open_again().map_err(|e| e.to_string())?;
        Ok(vec![first, second])
    });
    match r {
        Ok(v) => v.clone(),
        Err(e) => {
            panic!("GPU cluster test needs a GPU adapter (lavapipe will do) and found none: {e}")
        }
    }
}

#[test]
fn gpu_each_strategy_small_sizes() {
    let devs = gpu_pair();
    assert_ne!(devs[0].uid(), devs[1].uid());
    for (seed, n) in [(901u64, 1usize), (902, 3), (903, 1000)] {
        let (b, s) = inputs(n, seed);
        let want = reference(&b, &s);
        let fixed = Strategy::ALL.map(|st| (st, Some(n.div_ceil(4))));
        for (strategy, chunk_points) in fixed.into_iter().chain([(Strategy::Dynamic, None)]) {
            let cfg = ClusterConfig {
                strategy,
                chunk_points,
                calibration_points: 256,
                ..Default::default()
            };
            let c = Cluster::new(devs.clone()).unwrap().with_config(cfg);
            let got = c.msm(&b, &s, &MsmConfig::default());
            assert_eq!(
                got.as_ref().ok(),
                Some(&want),
                "GPU {strategy:?} n={n} seed={seed}: {got:?}"
            );
            let r = c.last_report().unwrap();
            assert_eq!(
                r.workers.iter().map(|w| w.points).sum::<usize>(),
                copies(strategy, 2) * n
            );
            if (matches!(strategy, Strategy::Even | Strategy::Windows) && n >= 2)
                || n == 1000 && strategy == Strategy::Dynamic
            {
                assert!(
                    r.workers.iter().all(|w| w.points > 0),
                    "both devices took part: {r}"
                );
            }
            eprintln!("{r}");
        }
    }
}

#[test]
fn gpu_two_devices_2_16() {
    let n = 1 << 16;
    let seed = 916;
    let (b, s) = inputs(n, seed);
    let want = reference(&b, &s);
    let c = Cluster::new(gpu_pair())
        .unwrap()
        .with_strategy(Strategy::Dynamic);
    let got = c.msm(&b, &s, &MsmConfig::default());
    assert_eq!(
        got.as_ref().ok(),
        Some(&want),
        "GPU Dynamic n=2^16 seed={seed}: {got:?}"
    );
    let r = c.last_report().unwrap();
    eprintln!("{r}");
    // Two alike devices cut to measure: both take part.
    assert_eq!(r.chunk_points, 0);
    assert!(
        r.workers.iter().all(|w| w.chunks > 0 && w.points > 0),
        "{r}"
    );
}

/// Auto on two alike devices is Even: 2^15 points per device. Device::msm itself returns
/// a wrong sum for 2^15 points on lavapipe (also 24576 and 32767 points; right for
/// 20000, 32769, 2^16), so this fails until that is fixed in src/msm.
#[test]
fn gpu_auto_even_2_16() {
    let n = 1 << 16;
    let seed = 917;
    let (b, s) = inputs(n, seed);
    let want = reference(&b, &s);
    let c = Cluster::new(gpu_pair())
        .unwrap()
        .with_config(ClusterConfig {
            min_split_points: 0,
            ..Default::default()
        });
    assert_eq!(c.resolved_strategy(), Strategy::Even);
    let got = c.msm(&b, &s, &MsmConfig::default());
    let r = c.last_report().unwrap();
    assert_eq!(
        got.as_ref().ok(),
        Some(&want),
        "GPU Auto(Even) n=2^16 seed={seed}: {r}"
    );
}

/// Bases resident across two logical devices: shares cover the input once, in order,
/// and MSMs over them match arkworks for several scalar sets; lengths are checked.
#[test]
fn gpu_resident_bases_across_devices() {
    let n = 1000;
    let seed = 4242;
    let (b, s) = inputs(n, seed);
    let c = Cluster::new(gpu_pair()).unwrap();
    let resident = c.upload_bases(&b).unwrap();
    let shares = resident.shares();
    assert_eq!(shares.len(), 2);
    assert_eq!(shares[0].1, 0);
    assert_eq!(
        shares[0].2 + shares[1].2,
        n,
        "shares cover every base once: {shares:?}"
    );
    assert_eq!(shares[1].1, shares[0].2);
    for k in 0..3u64 {
        let s2 = random_scalars(n, seed + k);
        assert_eq!(
            c.msm_with(&resident, &s2, &MsmConfig::default()).unwrap(),
            reference(&b, &s2),
            "seed {seed} set {k}"
        );
    }
    assert_eq!(
        c.msm_with(&resident, &s, &MsmConfig::default()).unwrap(),
        reference(&b, &s),
        "seed {seed}"
    );
    assert!(matches!(
        c.msm_with(&resident, &s[..n - 1], &MsmConfig::default()),
        Err(Error::LengthMismatch { .. })
    ));
    // Split by windows: every device holds every base.
    let w = Cluster::new(gpu_pair())
        .unwrap()
        .with_strategy(Strategy::Windows);
    let resident = w.upload_bases(&b).unwrap();
    assert!(resident.replicated());
    assert!(
        resident
            .shares()
            .iter()
            .all(|&(_, start, len)| (start, len) == (0, n)),
        "{:?}",
        resident.shares()
    );
    for k in 0..2u64 {
        let s2 = random_scalars(n, seed + 10 + k);
        assert_eq!(
            w.msm_with(&resident, &s2, &MsmConfig::default()).unwrap(),
            reference(&b, &s2),
            "windows, seed {} set {k}",
            seed + 10
        );
    }
}

/// Scalars resident beside resident bases on two logical devices (split by points, and
/// by windows with every device holding everything): MSMs match arkworks at sizes 1, 2,
/// 3 and 1000; scalars made for other bases are refused.
#[test]
fn gpu_resident_scalars_across_devices() {
    for strategy in [Strategy::Even, Strategy::Windows] {
        let c = Cluster::new(gpu_pair()).unwrap().with_strategy(strategy);
        for (n, seed) in [(1usize, 951u64), (2, 952), (3, 953), (1000, 954)] {
            let (b, s) = inputs(n, seed);
            let bases = c.upload_bases(&b).unwrap();
            let scalars = c.upload_scalars(&bases, &s).unwrap();
            assert_eq!(scalars.len(), n);
            let got = c.msm_resident(&bases, &scalars, &MsmConfig::default());
            assert_eq!(
                got.as_ref().ok(),
                Some(&reference(&b, &s)),
                "{strategy:?} n={n} seed={seed}: {got:?}"
            );
        }
        let (b, s) = inputs(10, 955);
        let bases = c.upload_bases(&b).unwrap();
        assert!(matches!(
            c.upload_scalars(&bases, &s[..9]),
            Err(Error::LengthMismatch { .. })
        ));
        let shorter = c.upload_bases(&b[..9]).unwrap();
        let theirs = c.upload_scalars(&shorter, &s[..9]).unwrap();
        let r = c.msm_resident(&bases, &theirs, &MsmConfig::default());
        assert!(
            matches!(r, Err(Error::LengthMismatch { .. })),
            "{strategy:?} scalars of other bases: {r:?}"
        );
    }
}

#[test]
fn gpu_costs_are_remembered_across_clusters() {
    // A lavapipe device and the CPU: unlike workers that remember their costs. A new
    // cluster of them recalls what an earlier one measured (the cost models of the
    // adaptive `Dynamic`, the throughputs of `Weighted`) instead of calibrating again.
    let dev = gpu_pair().remove(0);
    let (b, s) = inputs(2000, 961);
    let want = reference(&b, &s);
    for strategy in [Strategy::Dynamic, Strategy::Weighted] {
        let mk = || {
            Cluster::new(vec![dev.clone()])
                .unwrap()
                .with_cpu_worker()
                .with_config(ClusterConfig {
                    strategy,
                    calibration_points: 64,
                    ..Default::default()
                })
        };
        let first = mk();
        assert_eq!(first.msm(&b, &s, &MsmConfig::default()).unwrap(), want);
        drop(first);
        let second = mk();
        let got = second.msm(&b, &s, &MsmConfig::default());
        assert_eq!(got.as_ref().ok(), Some(&want), "{strategy:?} seed 961");
        let r = second.last_report().unwrap();
        assert_eq!(r.calibration_s, 0.0, "{strategy:?} recalled: {r}");
        match strategy {
            Strategy::Dynamic => assert!(r.workers.iter().all(|w| w.cost_model.is_some()), "{r}"),
            _ => assert!(r.workers.iter().all(|w| w.throughput.is_some()), "{r}"),
        }
        assert_eq!(r.workers.iter().map(|w| w.points).sum::<usize>(), 2000);
    }
}
