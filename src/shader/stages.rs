//! The MSM shader's shape as the host sees it: its stages in the order a pass runs
//! them, its entry points, and the workgroup sizes generated into its source.

/// Threads in a reduction workgroup (`REDUCE_WG` of msm_reduce.wgsl is generated from
/// it; a power of two).
pub const REDUCE_WG: u32 = 64;
const _: () = assert!(REDUCE_WG.is_power_of_two());
/// Threads in a scan workgroup (`SCAN_WG` of msm_sort.wgsl is generated from it).
pub const SCAN_WG: u32 = 256;
/// Counts each scan thread sums per tile (`SCAN_PER` of msm_sort.wgsl).
pub const SCAN_PER: u32 = 8;

/// Names of the timed stages, in order (each one compute pass).
pub(crate) const STAGES: [&str; 7] = [
    "decompose",
    "scan",
    "scatter",
    "accumulate",
    "fold",
    "collect",
    "reduce",
];

/// Index of the reduce stage in [`STAGES`] (run on an MSM's last pass only).
pub(crate) const REDUCE: usize = 6;

/// The first kernel of the scan stage (each tile's count total; the stage's own kernel,
/// `scan`, then scans each tile from the totals before it).
pub(crate) const SCAN_TILES: &str = "scan_tiles";

/// The second kernel of the reduce stage (window-group sums of the thread shares).
pub(crate) const REDUCE_GROUPS: &str = "reduce_groups";
/// The third kernel of the reduce stage (window sums of the group sums).
pub(crate) const REDUCE_WINDOWS: &str = "reduce_windows";

/// Index of the decompose stage in [`STAGES`].
pub(crate) const DECOMPOSE: usize = 0;

/// Index of the scatter stage in [`STAGES`].
pub(crate) const SCATTER: usize = 2;

/// Index of the accumulate stage in [`STAGES`].
pub(crate) const ACCUMULATE: usize = 3;

/// Index of the scan stage in [`STAGES`].
pub(crate) const SCAN: usize = 1;

/// Index of the fold stage in [`STAGES`].
pub(crate) const FOLD: usize = 4;

/// Index of the collect stage in [`STAGES`]: the fold kernel at step [`COLLECT_STEP`].
pub(crate) const COLLECT: usize = 5;

/// The fold step value that makes the fold kernel collect (`COLLECT` in msm_fold.wgsl).
pub(crate) const COLLECT_STEP: u32 = 31;

/// Every entry point of the MSM shader: the stages (but collect, which the fold kernel
/// runs) plus the reduce stage's second and third kernels.
pub(crate) fn entry_points() -> Vec<String> {
    STAGES
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != COLLECT)
        .map(|(_, s)| s)
        .chain(&[SCAN_TILES, REDUCE_GROUPS, REDUCE_WINDOWS])
        .map(|s| s.to_string())
        .collect()
}
