//! Encoding one pass (one chunk of at most `plan.capacity` points) of the MSM pipeline:
//! decompose -> scan -> scatter -> accumulate -> reduce, then copy the window-group sums
//! out. All stages run on the device; the host only combines the few sums per window.

use super::plan::{Plan, POINT_BYTES};
use super::state::{Working, FOLD_STRIDE};
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

    /// Byte offset of the window-group sums in the scratch buffer.
    pub(crate) fn group_sums_offset(&self) -> u64 {
        let w = u64::from(self.num_windows);
        POINT_BYTES * w * (u64::from(self.num_buckets) + u64::from(self.chunks_per_window))
    }

    /// Bytes of the window-group sums.
    pub(crate) fn group_sums_bytes(&self) -> u64 {
        POINT_BYTES * u64::from(self.num_windows * self.groups_per_window)
    }
}

/// Workgroups (x, y) of 64 threads covering `threads`, x capped at `max_x`.
pub(crate) fn grid(threads: u64, max_x: u32) -> (u32, u32) {
    let groups = threads.div_ceil(64).max(1);
    let x = groups.min(u64::from(max_x));
    (x as u32, groups.div_ceil(x) as u32)
}

/// Names of the timed stages, in order (each one compute pass).
pub(crate) const STAGES: [&str; 6] = [
    "decompose",
    "scan",
    "scatter",
    "accumulate",
    "fold",
    "reduce",
];

/// The second kernel of the reduce stage (window-group sums of the thread shares).
pub(crate) const REDUCE_GROUPS: &str = "reduce_groups";

/// Every entry point of the MSM shader: the stages plus the reduce stage's second kernel.
pub(crate) fn entry_points() -> Vec<String> {
    STAGES
        .iter()
        .chain(&[REDUCE_GROUPS])
        .map(|s| s.to_string())
        .collect()
}

/// Which stages of a pass to record: all of them, or one of the two halves split by
/// what they read, so that a caller can submit the stages that read only the scalars
/// while it is still writing the bases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// Every stage, then the copy of the window-group sums.
    All,
    /// Decompose, scan, scatter (scalars in; bases unread).
    Scalars,
    /// Accumulate, fold, reduce, then the copy of the window-group sums.
    Bases,
}

impl Part {
    /// Indices into [`STAGES`] this part records.
    fn stages(self) -> std::ops::Range<usize> {
        match self {
            Part::All => 0..STAGES.len(),
            Part::Scalars => 0..3,
            Part::Bases => 3..STAGES.len(),
        }
    }
}

/// Records one pass (or `part` of it) into `enc`. `bind` holds this pass's bases range and the working
/// buffers; the sums are copied to `out` at `out_offset`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn encode(
    enc: &mut wgpu::CommandEncoder,
    k: &Kernels,
    binds: [&wgpu::BindGroup; 2],
    work: &Working,
    p: &Params,
    max_x: u32,
    out: &wgpu::Buffer,
    out_offset: u64,
    timestamps: Option<(&wgpu::QuerySet, u32)>,
    part: Part,
) {
    let stages = part.stages();
    if stages.start == 0 {
        enc.clear_buffer(&work.counts, 0, None);
    }
    let n = u64::from(p.n);
    let w = u64::from(p.num_windows);
    let grids: [(u32, u32); 6] = [
        grid(n, max_x),
        (p.num_windows, 1),
        grid(n, max_x),
        grid(w * u64::from(p.chunks_per_window), max_x),
        (0, 0), // fold: one dispatch per step, below
        grid(w * u64::from(p.segs_per_window), max_x),
    ];
    // Fold steps until one step spans all chunks of a window.
    let fold_steps = 32 - p.chunks_per_window.saturating_sub(1).leading_zeros();
    for (s, (name, (x, y))) in STAGES.iter().zip(grids).enumerate() {
        if !stages.contains(&s) {
            continue;
        }
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
        pass.set_bind_group(0, binds[0], &[]);
        if *name == "fold" {
            for step in 0..fold_steps {
                let pairs = u64::from(p.chunks_per_window).div_ceil(2u64 << step);
                let (x, y) = grid(w * pairs, max_x);
                pass.set_bind_group(1, binds[1], &[step * FOLD_STRIDE as u32]);
                pass.dispatch_workgroups(x, y, 1);
            }
        } else {
            pass.set_bind_group(1, binds[1], &[0]);
            pass.dispatch_workgroups(x, y, 1);
        }
        if *name == "reduce" {
            // Then the thread shares of each window group, in a workgroup tree.
            pass.set_pipeline(k.get(REDUCE_GROUPS));
            pass.dispatch_workgroups(p.num_windows * p.groups_per_window, 1, 1);
        }
    }
    if stages.end == STAGES.len() {
        enc.copy_buffer_to_buffer(
            &work.scratch,
            p.group_sums_offset(),
            out,
            out_offset,
            p.group_sums_bytes(),
        );
    }
}
