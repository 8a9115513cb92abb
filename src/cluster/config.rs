//! How a [`Cluster`](super::Cluster) splits an MSM: the [`Strategy`] and the knobs of
//! each one, gathered in [`ClusterConfig`].

/// How the points of one MSM are divided among the workers of a cluster.
///
/// The default is [`Strategy::Auto`]: [`Strategy::Even`] when every worker is the same
/// hardware model, [`Strategy::Dynamic`] otherwise. Measured on lavapipe with two
/// logical devices on one adapter, 2^17 points, three runs (`examples/cluster_msm.rs
/// --strategy all --log-n 17 --logical 2`): Even took 2.5 s, 4.9 s and 2.5 s; Weighted
/// 3.0 s, 5.8 s, 3.1 s; Dynamic with the default 4 chunks per worker 4.5 s and 8.7 s,
/// and with 2 chunks per worker 3.4 s. Every MSM has a fixed cost (bucket reduction per
/// window, readback, host-side window sums), so splitting one device's share into
/// chunks costs more than the balance it buys when the devices are alike; Weighted's
/// short calibration MSM was a noisy predictor there (it favoured the device that then
/// ran slower). Dynamic stays the choice for unlike devices (an integrated GPU beside a
/// discrete one, the CPU as a worker): it needs no calibration and adapts to devices
/// slowed by other work, at a few chunks per worker. [`Strategy::Weighted`] suits a
/// fixed set of unlike GPUs running many MSMs: after its one-time calibration each
/// device gets exactly one block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Strategy {
    /// `Even` if all workers report the same [`Worker::model`](super::Worker::model),
    /// else `Dynamic`; with alike workers, MSMs below
    /// [`ClusterConfig::min_split_points`] run whole on one worker, in turn. Reports
    /// record the strategy it resolved to.
    #[default]
    Auto,
    /// One contiguous block per worker, all of (nearly) the same size.
    Even,
    /// One contiguous block per worker, sized in proportion to the worker's measured
    /// throughput (points per second, measured once per device with a small MSM and
    /// cached in the cluster).
    Weighted,
    /// Workers pull fixed-size chunks from a shared queue until it is empty.
    Dynamic,
    /// Every worker takes every point and an even share of the windows (see
    /// [`MsmConfig::windows`](crate::MsmConfig::windows)): each device's fixed costs
    /// (bucket reductions, per-pass bucket work) shrink with its share of windows, where
    /// a split by points leaves them whole on every device; but every device reads all
    /// bases (resident bases are copied to each device). Over resident bases the windows
    /// are those of the GLV halves; with the scalars resident too
    /// ([`Cluster::msm_resident`](super::Cluster::msm_resident)) this is the fastest
    /// split of a 2^22 MSM on two H200s (13.2-13.3 ms against 13.4-13.7 by points;
    /// slower at 2^24, BENCHMARKS.md v23).
    Windows,
}

impl Strategy {
    /// Every concrete strategy (not `Auto`), for tests and benchmarks that loop over them.
    pub const ALL: [Strategy; 4] = [
        Strategy::Even,
        Strategy::Weighted,
        Strategy::Dynamic,
        Strategy::Windows,
    ];
}

/// Options of a [`Cluster`](super::Cluster), fixed per cluster (per-MSM options stay in
/// [`MsmConfig`](crate::MsmConfig)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterConfig {
    /// How points are divided among workers.
    pub strategy: Strategy,
    /// Points per chunk under [`Strategy::Dynamic`]. `None`: about
    /// [`ClusterConfig::CHUNKS_PER_WORKER`] chunks per worker, but never fewer than
    /// [`ClusterConfig::MIN_CHUNK`] points per chunk (smaller chunks cost more in
    /// per-chunk overhead than they gain in balance).
    pub chunk_points: Option<usize>,
    /// Size of the MSM that measures a worker's throughput for [`Strategy::Weighted`].
    pub calibration_points: usize,
    /// Under [`Strategy::Auto`] with alike workers, an MSM of fewer points runs whole on
    /// one worker (each such MSM on the next worker in turn, so that concurrent small
    /// MSMs still spread over the devices): below it, what each device pays whatever
    /// its share (bucket reduction, readback) outweighs what splitting saves. Default
    /// 2^`WGPU_MSM_CLUSTER_MIN_SPLIT_LOG2` (17, measured on two H200s: 2^16 points ran
    /// in 2.0-2.3 ms on one and 2.2-2.9 ms split over both; BENCHMARKS.md v17). 0 always
    /// splits.
    pub min_split_points: usize,
}

impl ClusterConfig {
    /// Target number of chunks per worker when `chunk_points` is `None`.
    pub const CHUNKS_PER_WORKER: usize = 4;
    /// Smallest automatic chunk, in points.
    pub const MIN_CHUNK: usize = 1 << 12;

    /// The default configuration with another strategy.
    pub fn with_strategy(strategy: Strategy) -> Self {
        ClusterConfig {
            strategy,
            ..Default::default()
        }
    }

    /// Points per chunk for an MSM of `n` points over `workers` workers under
    /// [`Strategy::Dynamic`] (always at least 1).
    pub fn dynamic_chunk(&self, n: usize, workers: usize) -> usize {
        match self.chunk_points {
            Some(c) => c.max(1),
            None => n
                .div_ceil(workers.max(1) * Self::CHUNKS_PER_WORKER)
                .max(Self::MIN_CHUNK),
        }
    }
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            strategy: Strategy::default(),
            chunk_points: None,
            calibration_points: 1 << 12,
            min_split_points: 1 << crate::msm::tuning::cluster_min_split_log2().min(40),
        }
    }
}
