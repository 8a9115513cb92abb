//! Host side of `msm_reduce.wgsl`: on an MSM's last pass, each window's bucket totals
//! reduced by bit trees (after a walk over segments of them, in wide windows), a
//! dispatch a stage of the trees; the last stage's sums are then copied out.

use super::{grid, Params};
use crate::device::pipeline::Kernels;
use crate::msm::memory::working::{Working, FOLD_STRIDE};
use crate::shader::stages::{reduce_area, tree_stages, window_sum_weights, TreeStage, REDUCE_WALK};

impl Params {
    /// The stages of the reduction's trees ([`tree_stages`]).
    pub(crate) fn tree_stages(&self) -> Vec<TreeStage> {
        tree_stages(self.num_buckets, self.reduce_wg)
    }

    /// Byte offset of the window sums in the scratch buffer, for points of `point_bytes`
    /// bytes: where the reduction's last stage writes, after the bucket and chunk
    /// partials ([`reduce_area`]).
    pub(crate) fn window_sums_offset(&self, point_bytes: u64) -> u64 {
        let w = u64::from(self.num_windows);
        let (sums, _) = reduce_area(self.num_windows, self.num_buckets, self.reduce_wg);
        let partials = u64::from(self.bucket_partials) + u64::from(self.chunks_per_window);
        point_bytes * (w * partials + sums)
    }

    /// Bytes of the window sums ([`window_sum_weights`]' points a window), for points of
    /// `point_bytes` bytes.
    pub(crate) fn window_sums_bytes(&self, point_bytes: u64) -> u64 {
        let per_window = window_sum_weights(self.num_buckets, self.reduce_wg).len() as u64;
        point_bytes * u64::from(self.num_windows) * per_window
    }
}

/// Records the reduction: `reduce_walk` over every segment where windows are walked in
/// segments, then the `reduce` kernel once a stage of the trees, its stage number in the
/// fold-step slot it binds.
pub(super) fn record(
    pass: &mut wgpu::ComputePass<'_>,
    k: &Kernels,
    steps: &wgpu::BindGroup,
    p: &Params,
    max_x: u32,
) {
    if p.reduce_seg_log2 > 0 {
        let segments = u64::from(p.num_windows) * u64::from(p.num_buckets >> p.reduce_seg_log2);
        super::dispatch(pass, k, steps, REDUCE_WALK, grid(segments, max_x));
    }
    pass.set_pipeline(k.get("reduce"));
    for (s, t) in p.tree_stages().iter().enumerate() {
        pass.set_bind_group(1, steps, &[s as u32 * FOLD_STRIDE as u32]);
        let groups = t.workgroups(p.num_windows);
        let x = groups.min(u64::from(max_x));
        pass.dispatch_workgroups(x as u32, groups.div_ceil(x) as u32, 1);
    }
}

/// Copies the pass's window sums from the scratch buffer to `out` at `offset`.
pub(super) fn copy_window_sums(
    enc: &mut wgpu::CommandEncoder,
    work: &Working,
    p: &Params,
    out: &wgpu::Buffer,
    offset: u64,
    point_bytes: u64,
) {
    enc.copy_buffer_to_buffer(
        &work.scratch,
        p.window_sums_offset(point_bytes),
        out,
        offset,
        p.window_sums_bytes(point_bytes),
    );
}
