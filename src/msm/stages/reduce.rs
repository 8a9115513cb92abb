//! Host side of `msm_reduce.wgsl`: on an MSM's last pass, each window's bucket totals
//! reduced to the window sum by the running-sum method, in three kernels (thread
//! shares, then group sums, then window sums); the window sums are then copied out.

use super::{dispatch, grid, Params};
use crate::device::pipeline::Kernels;
use crate::msm::memory::working::Working;
use crate::shader::stages::{GROUP_SUMS, REDUCE_GROUPS, REDUCE_SUMS, REDUCE_WINDOWS};

impl Params {
    /// The windows the reduction reduces: every part of every window
    /// ([`reduce_parts`](crate::shader::stages::reduce_parts)).
    pub(crate) fn part_count(&self) -> u32 {
        self.num_windows * crate::shader::stages::reduce_parts(self.num_buckets)
    }

    /// Byte offset of the window sums in the scratch buffer (where the reduction's
    /// thread shares were, after the bucket, chunk and group partials), for points of
    /// `point_bytes` bytes.
    pub(crate) fn window_sums_offset(&self, point_bytes: u64) -> u64 {
        let w = u64::from(self.num_windows);
        point_bytes
            * (w * (u64::from(self.num_buckets) + u64::from(self.chunks_per_window))
                + u64::from(self.part_count()) * u64::from(GROUP_SUMS * self.groups_per_window))
    }

    /// Bytes of the window sums ([`REDUCE_SUMS`] points a part of a window, X_w of every
    /// part, then V_w, Y_w and T_w: see `Plan::window_weights_log2`), for points of
    /// `point_bytes` bytes.
    pub(crate) fn window_sums_bytes(&self, point_bytes: u64) -> u64 {
        point_bytes * u64::from(REDUCE_SUMS * self.part_count())
    }
}

/// Records the reduction: `reduce` (a thread per segment of every part of a window),
/// then `reduce_groups` (the thread shares of each group), then `reduce_windows` (the
/// groups of each part), each in workgroups.
pub(super) fn record(
    pass: &mut wgpu::ComputePass<'_>,
    k: &Kernels,
    steps: &wgpu::BindGroup,
    p: &Params,
    max_x: u32,
) {
    let threads = u64::from(p.part_count()) * u64::from(p.segs_per_window);
    dispatch(pass, k, steps, "reduce", grid(threads, max_x));
    pass.set_pipeline(k.get(REDUCE_GROUPS));
    pass.dispatch_workgroups(p.part_count() * p.groups_per_window, 1, 1);
    pass.set_pipeline(k.get(REDUCE_WINDOWS));
    pass.dispatch_workgroups(p.part_count(), 1, 1);
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
