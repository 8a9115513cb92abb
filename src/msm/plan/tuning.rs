//! Tuning knobs of the MSM drivers, with defaults measured on an H200 (BENCHMARKS.md).
//! Each can be overridden by an environment variable, read once per process, to tune
//! for other hardware or to measure alternatives without rebuilding:
//!
//! | variable | default | what it sets |
//! |---|---|---|
//! | `WGPU_MSM_UPLOAD_THREADS` | 12 | most threads one upload uses (and each device's upload pool holds) |
//! | `WGPU_MSM_UPLOAD_SPLIT` | 8 | an upload is cut into threads * this pieces, taken in turn |
//! | `WGPU_MSM_FIRST_PASS_SHIFT` | 3 | a streamed MSM's first pass holds capacity / 2^shift points |
//! | `WGPU_MSM_PASS_GROWTH` | 250 | each pass of a streamed MSM holds this percent of the one before |
//! | `WGPU_MSM_OVERLAP_DIVISOR` | 2 | large one-shot MSMs run in passes of about n / this (2^20 to 2^22) |
//! | `WGPU_MSM_RESIDENT_PASS_GROWTH` | 400 | each pass of a single resident MSM holds this percent of the one before |
//! | `WGPU_MSM_RESIDENT_FIRST_PASS_SHIFT` | 4 | a single resident MSM's first pass holds capacity / 2^shift points (the capacity holding the whole MSM) |
//! | `WGPU_MSM_STREAM_OVERLAP_LOG2` | 20 | one-shot MSMs from 2^this points stream in several (growing) passes |
//! | `WGPU_MSM_RESIDENT_OVERLAP_LOG2` | 21 | single resident MSMs from 2^this points run in several passes |
//! | `WGPU_MSM_ACCUMULATE_THREADS_LOG2` | 18 (17 for GLV passes of up to 2^21 points) | a pass aims for 2^this accumulation threads |
//! | `WGPU_MSM_REDUCE_SEGS_LOG2` | 11 | most bucket-reduction threads per window, 2^this (6 to 12) |
//! | `WGPU_MSM_READBACK_POLL` | 1 | 1: on a GPU, sleep until an MSM's final reduction starts, then poll for its results; 2: a blocking wait only |
//! | `WGPU_MSM_CLUSTER_MIN_SPLIT_LOG2` | 17 | a cluster (strategy Auto, alike devices) runs MSMs under 2^this points whole on one device |
//! | `WGPU_MSM_SEED_PER_BUCKET` | 32 | later passes of at most this many points per bucket start bucket heads from the totals |
//! | `WGPU_MSM_RETIRE_ON_POLLER` | 3 | who retires an MSM's finished submissions: 1 its next submission, 2 the device's polling thread, 3 the polling thread on GPUs and the next submission on software adapters |
//! | `WGPU_MSM_FOLD_INDIRECT` | 2 | 1: every fold step of a pass is dispatched at its full size; 2: the device sizes them (indirect dispatches, where the device has them) |
//! | `WGPU_MSM_GLV` | 2 | 1: MSMs keep whole scalars unless `MsmConfig::glv` asks for GLV; 2: they split them (GLV) unless it says no |
//! | `WGPU_MSM_POOL_KEEP` | 6 | idle working sets (and arenas, readback buffers) each device keeps for later MSMs of the same shape |
//! | `WGPU_MSM_DIRECT_UPLOADS` | 3 | what the kernels read straight from the upload buffers (where the device allows it): 1 nothing (all copied out first), 2 scalars, 3 scalars and bases |

use std::sync::OnceLock;

/// `var` parsed as a positive integer, or `default`.
fn knob(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&v: &usize| v > 0)
        .unwrap_or(default)
}

macro_rules! knob {
    ($(#[$doc:meta])* $name:ident, $var:literal, $default:expr) => {
        $(#[$doc])*
        pub(crate) fn $name() -> usize {
            static V: OnceLock<usize> = OnceLock::new();
            *V.get_or_init(|| knob($var, $default))
        }
    };
}

knob!(
    /// Most threads one upload uses, and the size of each device's upload pool
    /// (`DeviceState::upload_pool`; writes into host-visible memory run at a few GB/s
    /// per thread: 12-16 reach 30-33 GB/s into an H200, 32 no more). Two H200s fed at
    /// once on a 32-core host, with bases and scalars copied as raw bytes: 12 a device
    /// beat 16 (2^22 one-shot 16.42-16.67 -> 16.28-16.31 ms, 2^24 54.89-55.58 -> 54.85,
    /// one H200 unchanged, BENCHMARKS.md v21 (f)); 8 did as well one-shot and worse
    /// resident.
    upload_threads,
    "WGPU_MSM_UPLOAD_THREADS",
    12
);
knob!(
    /// An upload is cut into (its threads * this) pieces that its threads take in turn,
    /// so that a held-up thread delays the upload less (two H200s fed at once: 8 beat
    /// 1 and 4 by 0.2-0.8 ms at 2^22 and 2^24, BENCHMARKS.md v17).
    upload_split,
    "WGPU_MSM_UPLOAD_SPLIT",
    8
);
knob!(
    /// A streamed MSM's first pass holds its capacity / 2^this points (later passes
    /// grow up to the capacity, `pass_growth_pct`), so the device starts after a small
    /// upload.
    first_pass_shift,
    "WGPU_MSM_FIRST_PASS_SHIFT",
    3
);
knob!(
    /// Each pass of a streamed MSM holds this percent of the points of the one before,
    /// up to the capacity (see `plan::pass_sizes`). On one H200, 250 beat doubling by
    /// 0.2-0.5 ms one-shot from 2^20 to 2^24 (one pass fewer), and 300 or 400 by less
    /// (BENCHMARKS.md v28); not yet timed on a pair of devices fed at once.
    pass_growth_pct,
    "WGPU_MSM_PASS_GROWTH",
    250
);
knob!(
    /// A single resident MSM whose scalars come from the host (from
    /// 2^`resident_overlap_log2` points on) runs in passes that each hold this percent
    /// of the points of the one before, the first holding capacity /
    /// 2^`resident_first_pass_shift`, with a capacity that holds the whole MSM where the
    /// device allows (`plan::growing_passes`). The host writes 32 bytes a point about 5x
    /// faster than an H200 sums them, so the passes can grow fourfold: 3 passes at 2^22
    /// where doubling from capacity / 8 with passes of at most n / 2 took 5 (2^22 27.2 ->
    /// 26.3 ms, 2^24 97.6 -> 93.9, BENCHMARKS.md v24).
    resident_pass_growth_pct,
    "WGPU_MSM_RESIDENT_PASS_GROWTH",
    400
);
knob!(
    /// A single resident MSM's first pass holds capacity / 2^this points (see
    /// `resident_pass_growth_pct`).
    resident_first_pass_shift,
    "WGPU_MSM_RESIDENT_FIRST_PASS_SHIFT",
    4
);
knob!(
    /// Large one-shot MSMs run in passes of about n / this many points (within
    /// 2^20..2^22).
    overlap_divisor,
    "WGPU_MSM_OVERLAP_DIVISOR",
    2
);
knob!(
    /// One-shot MSMs from 2^this points stream in several passes even when one fits,
    /// growing from a small first one, so that the upload hides behind compute (2^20
    /// on an H200: 10.1 -> 9.0-9.2 ms; 2^19 -0.1 ms and 2^18 +0.9, where the passes cost
    /// more than the overlap saves, BENCHMARKS.md v25).
    stream_overlap_log2,
    "WGPU_MSM_STREAM_OVERLAP_LOG2",
    20
);
knob!(
    /// Single resident MSMs from 2^this points run in several passes, so that the
    /// scalar upload overlaps compute.
    resident_overlap_log2,
    "WGPU_MSM_RESIDENT_OVERLAP_LOG2",
    21
);

knob!(
    /// A pass aims for 2^this accumulation threads; 0 (unset): the plan's default
    /// (`plan::accumulate_threads_log2`).
    accumulate_threads_log2,
    "WGPU_MSM_ACCUMULATE_THREADS_LOG2",
    0
);
knob!(
    /// At most 2^this bucket-reduction threads per window ([`DEFAULT_REDUCE_SEGS_LOG2`]
    /// by default).
    reduce_segs_log2,
    "WGPU_MSM_REDUCE_SEGS_LOG2",
    DEFAULT_REDUCE_SEGS_LOG2 as usize
);

/// Most bucket-reduction threads per window by default, 2^this (`plan::MAX_SEGS`).
pub(crate) const DEFAULT_REDUCE_SEGS_LOG2: u32 = 11;
knob!(
    /// Most points per bucket (pass points / buckets per window) at which a later
    /// pass's bucket heads start from the bucket totals (`pass::Heads::Seeded`);
    /// larger passes leave every piece to the collect step.
    seed_points_per_bucket,
    "WGPU_MSM_SEED_PER_BUCKET",
    32
);
knob!(
    /// 1: on a GPU, an MSM's host thread sleeps until the final reduction's submission
    /// is next, then polls the device for the results (a blocking wait wakes up a few
    /// hundred microseconds after the device is done); 2: a blocking wait only.
    readback_poll,
    "WGPU_MSM_READBACK_POLL",
    1
);
knob!(
    /// A cluster's default `ClusterConfig::min_split_points` is
    /// 2^this.
    cluster_min_split_log2,
    "WGPU_MSM_CLUSTER_MIN_SPLIT_LOG2",
    17
);
knob!(
    /// What the kernels read straight from the host-visible upload buffers, on devices
    /// that allow storage bindings of mappable buffers (`MAPPABLE_PRIMARY_BUFFERS`):
    /// 1 nothing (each upload is copied into a device buffer first), 2 the scalars, 3
    /// the scalars and the streamed bases (see `DirectUploads`).
    direct_uploads,
    "WGPU_MSM_DIRECT_UPLOADS",
    3
);
knob!(
    /// Who retires an MSM's finished submissions (wgpu's bookkeeping of finished work,
    /// which on an H200 host sometimes spends milliseconds in the driver's kernel
    /// code): 1 the MSM's next submission; 2 the device's polling thread, which waits
    /// for each submission and retires it, so the MSM's own thread seldom does (two
    /// H200s at 2^22: 17.2 -> 16.9 ms, one H200 unchanged, BENCHMARKS.md v20); 3 (the
    /// default) 2 on GPUs and 1 on software adapters, where a waiting poller holds up
    /// the next submission (lavapipe's tests ran 1.5-2x longer).
    retire_on_poller,
    "WGPU_MSM_RETIRE_ON_POLLER",
    3
);
knob!(
    /// 1: every fold step a pass's chunks allow is dispatched at full size from the host,
    /// and the steps a pass does not need return at once on the device; 2 (the default):
    /// a one-workgroup kernel sizes the steps from the pass's largest bucket and the
    /// host records them as indirect dispatches, so unneeded steps launch nothing
    /// (where the device has indirect execution; else 1).
    fold_indirect,
    "WGPU_MSM_FOLD_INDIRECT",
    2
);
knob!(
    /// 1: whole scalars by default; 2: GLV halves by default (`MsmConfig::glv`).
    glv_default,
    "WGPU_MSM_GLV",
    2
);
knob!(
    /// Idle working sets, input arenas and readback buffers each device keeps (each
    /// kind), so that an MSM of a shape run before allocates nothing. A prover runs
    /// MSMs of a few sizes and modes in turn; with 2 kept, a third shape evicted the
    /// first and every call allocated again (on an H200, a one-shot 2^22 MSM after a
    /// resident and a device-resident one took 47-58 ms instead of 16, 2^24 ~300
    /// instead of 53, BENCHMARKS.md v26). An allocation that fails frees them all and
    /// is tried once more.
    pool_keep,
    "WGPU_MSM_POOL_KEEP",
    6
);
