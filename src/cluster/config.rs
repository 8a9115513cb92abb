//! How a [`Cluster`](super::Cluster) splits an MSM: the [`Strategy`] and the knobs of
//! each one, gathered in [`ClusterConfig`].

/// How the points of one MSM are divided among the workers of a cluster.
///
/// The default is [`Strategy::Auto`]: [`Strategy::Even`] when every worker is the same
/// hardware model, [`Strategy::Dynamic`] otherwise. Every MSM has a fixed cost on each
/// worker (bucket reduction per window, readback, host-side window sums), so among
/// alike devices one even block each is best: every further piece pays that cost
/// again (see docs/ for the comparison). Unlike
/// workers (an integrated GPU beside a discrete one, the CPU as a worker) get
/// `Dynamic`, which learns what each costs and gives a worker nothing it would finish
/// after the others. [`Strategy::Weighted`] suits a fixed set of unlike GPUs: after its
/// one-time calibration each device gets one block in proportion to its throughput.
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
    /// cached in the cluster, and per hardware model beyond it where the worker
    /// [remembers its costs](super::Worker::remember_costs)).
    Weighted,
    /// Workers pull pieces from a shared queue until it is empty, so a slow or busy
    /// worker never holds the job back. By default (no
    /// [`ClusterConfig::chunk_points`]) pieces are cut to measure: each worker has a cost
    /// model, seconds = overhead + per-point cost × points ([`CostModel`](super::CostModel),
    /// fitted to timed calibration MSMs the first time, see
    /// [`ClusterConfig::calibration_points`], then to every piece it runs; kept per
    /// hardware model for later clusters and processes where the worker
    /// [remembers its costs](super::Worker::remember_costs)), and takes the share of the
    /// points left with which all workers would finish together, the others' current pieces counted; a worker that would finish even
    /// one point after the others had done everything takes nothing. Alike devices so
    /// get one block each; a worker far slower than the rest sits out. With
    /// `chunk_points` set, the points are cut into chunks of that size instead, taken in
    /// turn by whichever worker asks.
    Dynamic,
    /// Every worker takes every point and an even share of the windows (see
    /// [`MsmConfig::windows`](crate::config::MsmConfig::windows)): each device's fixed costs
    /// (bucket reductions, per-pass bucket work) shrink with its share of windows, where
    /// a split by points leaves them whole on every device; but every device reads all
    /// bases (resident bases are copied to each device). Over resident bases the windows
    /// are those of the GLV halves; with the scalars resident too
    /// ([`Cluster::msm_resident`](super::Cluster::msm_resident)) it can beat a split by
    /// points at moderate sizes (see docs/).
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
/// [`MsmConfig`](crate::config::MsmConfig)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterConfig {
    /// How points are divided among workers.
    pub strategy: Strategy,
    /// Points per chunk under [`Strategy::Dynamic`]: `None` (the default) cuts each
    /// worker's pieces by its cost model (see [`Strategy::Dynamic`]); `Some(c)` cuts the
    /// MSM into chunks of `c` points that workers take in turn.
    pub chunk_points: Option<usize>,
    /// Size of the MSM that measures a worker's throughput for [`Strategy::Weighted`].
    /// The cost model of [`Strategy::Dynamic`] starts from MSMs of a quarter of it,
    /// growing fourfold (up to 64 times it) until one takes three times as long as the
    /// first, so that the per-point cost shows above the fixed cost.
    pub calibration_points: usize,
    /// Under [`Strategy::Auto`] with alike workers, an MSM of fewer points runs whole on
    /// one worker (each such MSM on the next worker in turn, so that concurrent small
    /// MSMs still spread over the devices): below it, what each device pays whatever
    /// its share (bucket reduction, readback) outweighs what splitting saves. Default
    /// 2^17 (measured on a pair of GPUs, see docs/). 0 always splits.
    pub min_split_points: usize,
}

impl ClusterConfig {
    /// The default configuration with another strategy.
    pub fn with_strategy(strategy: Strategy) -> Self {
        ClusterConfig {
            strategy,
            ..Default::default()
        }
    }
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            strategy: Strategy::default(),
            chunk_points: None,
            calibration_points: 1 << 12,
            min_split_points: 1 << 17,
        }
    }
}
