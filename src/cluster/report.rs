//! What one cluster MSM did: per-worker points, chunks, busy time, bytes sent and
//! failures, with the load imbalance and the wall time.

use super::config::Strategy;
use super::model::CostModel;

/// Bytes one base occupies when sent to a device (affine x, y: 2 × 32 bytes).
pub const BASE_BYTES: u64 = 64;
/// Bytes one scalar occupies when sent to a device.
pub const SCALAR_BYTES: u64 = 32;

/// One worker's share of a cluster MSM.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct WorkerReport {
    /// The worker's name ([`Worker::name`](super::Worker::name)).
    pub name: String,
    /// Points of the chunks this worker completed.
    pub points: usize,
    /// Chunks this worker completed.
    pub chunks: usize,
    /// Seconds spent inside the worker's chunk calls, failed ones included.
    pub busy_s: f64,
    /// Bytes handed to the worker: 64 per base and 32 per scalar of every chunk it was
    /// given, including a chunk whose call then failed.
    pub bytes_moved: u64,
    /// Chunk calls that returned an error (at most 1: a failed worker leaves the MSM).
    pub failures: usize,
    /// The last error's message, when the worker failed.
    pub last_error: Option<String>,
    /// Measured throughput in points per second, under [`Strategy::Weighted`].
    pub throughput: Option<f64>,
    /// The cost model the adaptive [`Strategy::Dynamic`] split this MSM by (learned from
    /// the worker's earlier pieces; the pieces of this MSM refine it for the next).
    pub cost_model: Option<CostModel>,
}

/// A summary of one [`Cluster::msm`](super::Cluster::msm) call.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ClusterReport {
    /// The strategy used.
    pub strategy: Strategy,
    /// Total points of the MSM.
    pub points: usize,
    /// Points per chunk under [`Strategy::Dynamic`] with fixed chunks
    /// ([`ClusterConfig::chunk_points`](super::ClusterConfig::chunk_points)); 0 for the
    /// block strategies and the adaptive `Dynamic`, whose pieces are cut to measure.
    pub chunk_points: usize,
    /// Seconds from the call to the result, calibration included.
    pub wall_s: f64,
    /// Seconds of that spent measuring workers (0 unless `Weighted` or the adaptive
    /// `Dynamic` had to calibrate one).
    pub calibration_s: f64,
    /// One entry per worker, in cluster order.
    pub workers: Vec<WorkerReport>,
    /// Whether the MSM was too small to split and ran whole on one worker (see
    /// [`ClusterConfig::min_split_points`](super::ClusterConfig::min_split_points)).
    pub whole: bool,
}

impl ClusterReport {
    /// Largest busy time over the mean busy time (1.0 is perfect balance; 1.0 too when
    /// nothing was busy, or when the MSM ran [`whole`](ClusterReport::whole) on one
    /// worker by design). Every worker of the cluster counts, idle ones included.
    pub fn imbalance(&self) -> f64 {
        let n = self.workers.len();
        if n == 0 || self.whole {
            return 1.0;
        }
        let max = self.workers.iter().map(|w| w.busy_s).fold(0.0, f64::max);
        let mean = self.workers.iter().map(|w| w.busy_s).sum::<f64>() / n as f64;
        if mean > 0.0 {
            max / mean
        } else {
            1.0
        }
    }

    /// Total bytes sent to all workers.
    pub fn bytes_moved(&self) -> u64 {
        self.workers.iter().map(|w| w.bytes_moved).sum()
    }

    /// Total failed chunk calls.
    pub fn failures(&self) -> usize {
        self.workers.iter().map(|w| w.failures).sum()
    }
}

impl std::fmt::Display for ClusterReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let whole = if self.whole {
            " (whole on one worker: too small to split)"
        } else {
            ""
        };
        writeln!(
            f,
            "{:?}{whole}: {} points in {:.3} s (calibration {:.3} s), imbalance {:.2}",
            self.strategy,
            self.points,
            self.wall_s,
            self.calibration_s,
            self.imbalance()
        )?;
        for w in &self.workers {
            write!(
                f,
                "  {:<40} {:>9} points {:>4} chunks {:>8.3} s busy {:>12} B",
                w.name, w.points, w.chunks, w.busy_s, w.bytes_moved
            )?;
            if let Some(t) = w.throughput {
                write!(f, " {t:>12.0} pt/s")?;
            }
            if let Some(m) = w.cost_model {
                write!(
                    f,
                    " model {:.2} ms + {:.1} ns/pt",
                    m.overhead_s * 1e3,
                    m.per_point_s * 1e9
                )?;
            }
            if w.failures > 0 {
                write!(
                    f,
                    " FAILED x{}: {}",
                    w.failures,
                    w.last_error.as_deref().unwrap_or("")
                )?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
