//! Host side of `msm_sort.wgsl`: the bucket counts scanned into offsets (each tile's
//! total first, then each tile from the totals before it), and every entry scattered to
//! its bucket's place, so that a bucket's entries lie together.

use super::{dispatch, grid, Params};
use crate::device::pipeline::Kernels;
use crate::shader::stages::SCAN_TILES;

impl Params {
    /// Scan tiles per window (see [`crate::msm::plan::scan_tiles`]).
    pub(crate) fn scan_tiles(&self) -> u32 {
        crate::msm::plan::scan_tiles(self.num_buckets)
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

/// Records the scatter: a thread per entry of a window.
pub(super) fn record_scatter(
    pass: &mut wgpu::ComputePass<'_>,
    k: &Kernels,
    steps: &wgpu::BindGroup,
    p: &Params,
    max_x: u32,
) {
    dispatch(pass, k, steps, "scatter", grid(u64::from(p.n), max_x));
}
