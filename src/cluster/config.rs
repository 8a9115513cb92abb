//! How a [`Cluster`](super::Cluster) splits an MSM: the [`Strategy`] and the knobs of
//! each one, gathered in [`ClusterConfig`].

/// How the points of one MSM are divided among the workers of a cluster.
///
/// The default is [`Strategy::Dynamic`]. It needs no calibration and adapts by itself to
/// workers of unequal speed, to devices slowed by other work (a shared GPU, or lavapipe
/// sharing CPU cores with the host) and to a worker dropping out: a fast device simply
/// takes more chunks. Its cost is a per-chunk overhead (one base upload and one host-side
/// window reduction per chunk), which the default chunk size keeps to a few chunks per
/// worker. [`Strategy::Weighted`] is the better choice for a fixed, known set of GPUs
/// running many MSMs of the same size: after its one-time calibration it sends each
/// device exactly one block. [`Strategy::Even`] is the textbook block partition, right
/// only for identical devices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Strategy {
    /// One contiguous block per worker, all of (nearly) the same size.
    Even,
    /// One contiguous block per worker, sized in proportion to the worker's measured
    /// throughput (points per second, measured once per device with a small MSM and
    /// cached in the cluster).
    Weighted,
    /// Workers pull fixed-size chunks from a shared queue until it is empty.
    #[default]
    Dynamic,
}

impl Strategy {
    /// Every strategy, for tests and benchmarks that loop over them.
    pub const ALL: [Strategy; 3] = [Strategy::Even, Strategy::Weighted, Strategy::Dynamic];
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
        }
    }
}
