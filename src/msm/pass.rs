//! Encoding one pass (one chunk of at most `plan.capacity` points) of the MSM pipeline:
//! decompose -> scan -> scatter -> accumulate -> reduce (four kernels), then copy the window sums
//! out. All stages run on the device; the host only combines the few sums per window.

use super::plan::{Plan, POINT_BYTES};
use super::state::Working;
use crate::gpu::Kernels;

/// Uniform parameters of one pass (mirrors `Params` in msm_bindings.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct Params {
    pub n: u32,
    pub window_bits: u32,
    pub num_windows: u32,
    pub num_buckets: u32,
    pub chunk_len: u32,
    pub chunks_per_window: u32,
    pub segs_per_window: u32,
    pub groups_per_window: u32,
}

impl Params {
    pub(crate) fn new(plan: &Plan, n: u32) -> Params {
        Params {
            n,
            window_bits: plan.window_bits,
            num_windows: plan.num_windows,
            num_buckets: plan.num_buckets,
            chunk_len: plan.chunk_len,
            chunks_per_window: n.div_ceil(plan.chunk_len),
            segs_per_window: plan.segs_per_window,
            groups_per_window: plan.groups_per_window,
        }
    }

    /// Byte offset of the window sums in the scratch buffer (see msm_reduce.wgsl).
    pub(crate) fn window_sums_offset(&self) -> u64 {
        let w = u64::from(self.num_windows);
        let pts = w
            * (u64::from(self.num_buckets)
                + u64::from(self.chunks_per_window)
                + 2 * u64::from(self.segs_per_window)
                + 3 * u64::from(self.groups_per_window));
        POINT_BYTES * pts
    }

    /// Bytes of the window sums.
    pub(crate) fn window_sums_bytes(&self) -> u64 {
        POINT_BYTES * u64::from(self.num_windows)
    }
}

/// Workgroups (x, y) of 64 threads covering `threads`, x capped at `max_x`.
pub(crate) fn grid(threads: u64, max_x: u32) -> (u32, u32) {
    let groups = threads.div_ceil(64).max(1);
    let x = groups.min(u64::from(max_x));
    (x as u32, groups.div_ceil(x) as u32)
}

/// Entry points of the MSM, in dispatch order (the last four are the reduction).
pub const STAGES: [&str; 8] = [
    "decompose",
    "scan",
    "scatter",
    "accumulate",
    "bucket_sums",
    "segment_sums",
    "group_sums",
    "window_sums",
];

/// Records one pass into `enc`. `bind` holds this pass's bases range and the working
/// buffers; the sums are copied to `out` at `out_offset`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn encode(
    enc: &mut wgpu::CommandEncoder,
    k: &Kernels,
    bind: &wgpu::BindGroup,
    work: &Working,
    p: &Params,
    max_x: u32,
    out: &wgpu::Buffer,
    out_offset: u64,
    timestamps: Option<(&wgpu::QuerySet, u32)>,
) {
    enc.clear_buffer(&work.counts, 0, None);
    let n = u64::from(p.n);
    let w = u64::from(p.num_windows);
    let grids: [(u32, u32); 8] = [
        grid(n, max_x),
        (p.num_windows, 1),
        grid(n, max_x),
        grid(w * u64::from(p.chunks_per_window), max_x),
        grid(w * u64::from(p.num_buckets), max_x),
        grid(w * u64::from(p.segs_per_window), max_x),
        grid(w * u64::from(p.groups_per_window), max_x),
        grid(w, max_x),
    ];
    for (s, (name, (x, y))) in STAGES.iter().zip(grids).enumerate() {
        let label = format!("msm/{name}");
        let timestamp_writes = timestamps.map(|(qs, base)| wgpu::ComputePassTimestampWrites {
            query_set: qs,
            beginning_of_pass_write_index: Some(base + 2 * s as u32),
            end_of_pass_write_index: Some(base + 2 * s as u32 + 1),
        });
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(&label),
            timestamp_writes,
        });
        pass.set_pipeline(k.get(name));
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(x, y, 1);
    }
    enc.copy_buffer_to_buffer(
        &work.scratch,
        p.window_sums_offset(),
        out,
        out_offset,
        p.window_sums_bytes(),
    );
}
