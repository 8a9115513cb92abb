//! Host side of `msm_sort.wgsl`: the bucket counts scanned into offsets (each tile's
//! total first, then each tile from the totals before it), and every entry scattered to
//! its bucket's place, so that a bucket's entries lie together (directly, or through
//! bins: [`ScatterMode`]).

use super::{dispatch, grid, Params};
use crate::device::pipeline::Kernels;
use crate::msm::plan::ScatterMode;
use crate::shader::stages::{
    bins_are_nested, fine_bins_a_group, BIN_LOG2, BIN_PER, BIN_TILES_WG, BIN_WG, SCAN_TILES,
    SCATTER_BINS, SCATTER_FINE, SCATTER_FINE_GROUP, SCATTER_MID,
};

impl Params {
    /// Scan tiles per window (see [`crate::msm::plan::scan_tiles`]).
    pub(crate) fn scan_tiles(&self) -> u32 {
        crate::msm::plan::scan_tiles(self.num_buckets)
    }

    /// The pass with its scatter by atomic cursors where it would go through bins and
    /// `bins` is off (`Tuning::scatter_bins`): cursors use less of the digit buffer
    /// than bins, so the plan's buffers hold either.
    pub(crate) fn with_bins(mut self, bins: bool) -> Params {
        if !bins && self.scatter == ScatterMode::Bins as u32 {
            self.scatter = ScatterMode::Cursors as u32;
        }
        self
    }
}

/// Records the scan: `scan_tiles` (each tile's count total), then `scan` (each tile
/// from the totals before it), a workgroup per tile of every window.
pub(super) fn record_scan(
    pass: &mut wgpu::ComputePass<'_>,
    k: &Kernels,
    steps: &wgpu::BindGroup,
    p: &Params,
) {
    let groups = (p.num_windows * p.scan_tiles(), 1);
    pass.set_bind_group(1, steps, &[0]);
    pass.set_pipeline(k.get(SCAN_TILES));
    pass.dispatch_workgroups(groups.0, groups.1, 1);
    dispatch(pass, k, steps, "scan", groups);
}

/// Records the scatter (the plan's [`ScatterMode`]): in bins, a workgroup per
/// [`BIN_TILES_WG`] tiles of a window's digits (`scatter_bins`), one per as many tiles of
/// its entries by coarse bin where those are wider than fine ones (`scatter_mid`), then
/// one per fine bin or per [`fine_bins_a_group`] of them (`scatter_fine`,
/// `scatter_fine_group`); otherwise a thread per point of every window
/// (`scatter`).
pub(super) fn record_scatter(
    pass: &mut wgpu::ComputePass<'_>,
    k: &Kernels,
    steps: &wgpu::BindGroup,
    p: &Params,
    max_x: u32,
) {
    if p.scatter != ScatterMode::Bins as u32 {
        dispatch(pass, k, steps, "scatter", grid(u64::from(p.n), max_x));
        return;
    }
    // Workgroups a window of scatter_bins and scatter_mid.
    let tile_groups = p.n.div_ceil(BIN_WG * BIN_PER).div_ceil(BIN_TILES_WG);
    let per_group = fine_bins_a_group(p.n, p.num_buckets);
    let fine_groups = p.num_buckets.div_ceil(per_group << BIN_LOG2);
    let fine = if per_group > 1 {
        SCATTER_FINE_GROUP
    } else {
        SCATTER_FINE
    };
    // `grid` counts threads of 64-wide groups; these kernels count workgroups.
    let groups = |count: u32| grid(64 * u64::from(p.num_windows * count), max_x);
    dispatch(pass, k, steps, SCATTER_BINS, groups(tile_groups));
    if bins_are_nested(p.num_buckets) {
        dispatch(pass, k, steps, SCATTER_MID, groups(tile_groups));
    }
    dispatch(pass, k, steps, fine, groups(fine_groups));
}
