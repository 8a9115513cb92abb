//! One pass (one chunk of at most `plan.points` points) of the MSM pipeline, a file
//! per stage in the order they run, each named as its WGSL (`shaders/msm_*.wgsl`):
//! `decompose` (scalars to signed window digits and bucket counts), `sort` (scan the
//! counts into offsets, scatter the entries into bucket order), `accumulate` (each
//! thread sums a chunk of sorted entries into runs), `fold` (the chunk runs of a
//! bucket summed pairwise, then collected into the bucket totals that persist over the
//! MSM's passes), and on the MSM's last pass `reduce` (window sums from the bucket
//! totals), whose sums are copied out; `combine` is the host's last step, the window
//! sums weighted by powers of two. This file holds a pass's parameters and records the
//! stages in order.

mod accumulate;
pub(crate) mod combine;
mod decompose;
pub(crate) mod fold;
mod reduce;
mod sort;

use crate::device::pipeline::Kernels;
use crate::msm::memory::working::Working;
use crate::msm::plan::{Plan, CHUNK_LEN_RANGE};
pub(crate) use crate::shader::stages::{
    ACCUMULATE, COLLECT, DECOMPOSE, FOLD, REDUCE, SCAN, SCATTER, STAGES,
};
use accumulate::Heads;
pub(crate) use fold::FoldIndirect;

/// Uniform parameters of one pass (mirrors `Params` in msm_params.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct Params {
    pub n: u32,
    pub window_bits: u32,
    pub num_windows: u32,
    pub num_buckets: u32,
    pub chunk_len: u32,
    pub chunks_per_window: u32,
    pub reduce_wg: u32,
    pub reduce_seg_log2: u32,
    pub first_window: u32,
    pub heads: u32,
    pub points: u32,
    pub entry_layout: u32,
    pub scatter: u32,
    pub full_windows: u32,
    pub bucket_partials: u32,
}

impl Params {
    /// The parameters of a pass of `points` points (at most `plan.points`); `first`
    /// when it is its MSM's first pass. A pass smaller than the plan's capacity gets
    /// shorter accumulation chunks, so that it still spreads over about as many
    /// threads, within the plan's chunk partials. Its heads are seeded up to the plan's
    /// [`Plan::seed_points`] points a bucket.
    pub(crate) fn new(plan: &Plan, points: u32, first: bool) -> Params {
        // Entries a window: one a point, or two in the expanded layouts.
        let n = points * plan.layout.entries_per_point();
        // Not rounded to a power of two: a pass of 1.5 * 2^k points keeps the plan's
        // thread count instead of dropping to three quarters of it.
        let chunk_len = n
            .div_ceil(plan.chunks_per_window)
            .clamp(CHUNK_LEN_RANGE.0.min(plan.chunk_len), plan.chunk_len);
        Params {
            n,
            window_bits: plan.window_bits,
            num_windows: plan.num_windows,
            num_buckets: plan.num_buckets,
            chunk_len,
            chunks_per_window: n.div_ceil(chunk_len),
            reduce_wg: plan.reduce_wg,
            reduce_seg_log2: crate::shader::stages::reduce_seg_log2(plan.num_buckets),
            first_window: plan.first_window,
            heads: Heads::of_pass(first, n, plan.num_buckets, plan.seed_points) as u32,
            points,
            entry_layout: plan.layout as u32,
            scatter: plan.scatter_mode() as u32,
            full_windows: plan.full_windows,
            bucket_partials: plan.bucket_partials(),
        }
    }
}

impl Params {
    /// Offset in the counts buffer of the pass's accumulation workgroup counts: those
    /// counted in, those counted out, and the most running at once (`arrived_index` and
    /// the two after it in msm_bindings.wgsl).
    pub(crate) fn workgroup_counts_offset(&self) -> u64 {
        4 * (u64::from(self.num_windows) * u64::from(self.num_buckets) + 1)
    }
}

/// Workgroups (x, y) of 64 threads covering `threads`, x capped at `max_x`.
pub(crate) fn grid(threads: u64, max_x: u32) -> (u32, u32) {
    let groups = threads.div_ceil(64).max(1);
    let x = groups.min(u64::from(max_x));
    (x as u32, groups.div_ceil(x) as u32)
}

/// Which stages of a pass to record: all of them, or one of the two halves split by
/// what they read, so that a caller can submit the stages that read only the scalars
/// while it is still writing the bases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// Every stage, then the copy of the window sums.
    All,
    /// Decompose, scan, scatter (scalars in; bases unread).
    Scalars,
    /// Accumulate, fold, collect, reduce, then the copy of the window sums.
    Bases,
}

impl Part {
    /// Indices into [`STAGES`] this part records.
    pub(crate) fn stages(self) -> std::ops::Range<usize> {
        match self {
            Part::All => 0..STAGES.len(),
            Part::Scalars => 0..3,
            Part::Bases => 3..STAGES.len(),
        }
    }
}

/// Where a pass stands in its MSM: the first one starts the bucket totals from zero;
/// the last one reduces them and copies the window sums to `sums` (buffer, offset);
/// points are `point_bytes` bytes (the group's). With `running`, the accumulation's
/// workgroup counts (in, out, most at once: three words) go to that buffer and offset.
#[derive(Clone, Copy)]
pub(crate) struct Role<'a> {
    pub(crate) first: bool,
    pub(crate) sums: Option<(&'a wgpu::Buffer, u64)>,
    pub(crate) point_bytes: u64,
    pub(crate) running: Option<(&'a wgpu::Buffer, u64)>,
}

/// Records one pass (or `part` of it) into `enc`. `binds` hold this pass's inputs and
/// the working buffers, then the fold steps; with `fold`, the fold steps are dispatched
/// indirectly at the sizes the device gives them. Each stage is one compute pass with
/// its own timestamps; the stage files record what runs inside it.
#[allow(clippy::too_many_arguments)]
pub(crate) fn encode(
    enc: &mut wgpu::CommandEncoder,
    k: &Kernels,
    binds: [&wgpu::BindGroup; 2],
    fold: Option<fold::FoldIndirect<'_>>,
    work: &Working,
    p: &Params,
    max_x: u32,
    role: Role<'_>,
    timestamps: Option<(&wgpu::QuerySet, u32)>,
    stages: std::ops::Range<usize>,
) {
    if stages.start == 0 {
        enc.clear_buffer(&work.counts, 0, None);
    }
    if role.first && stages.contains(&ACCUMULATE) {
        enc.clear_buffer(&work.totals, 0, None);
    }
    for s in stages.clone() {
        let label = format!("msm/{}", STAGES[s]);
        let timestamp_writes = timestamps.map(|(qs, base)| wgpu::ComputePassTimestampWrites {
            query_set: qs,
            beginning_of_pass_write_index: Some(base + 2 * s as u32),
            end_of_pass_write_index: Some(base + 2 * s as u32 + 1),
        });
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(&label),
            timestamp_writes,
        });
        if s == REDUCE && role.sums.is_none() {
            // Not the MSM's last pass: no reduction. The (empty) pass still writes its
            // timestamps, so that every query the job resolves was written.
            continue;
        }
        pass.set_bind_group(0, binds[0], &[]);
        let steps = binds[1];
        match s {
            DECOMPOSE => decompose::record(&mut pass, k, steps, p, max_x),
            SCAN => sort::record_scan(&mut pass, k, steps, p),
            SCATTER => sort::record_scatter(&mut pass, k, steps, p, max_x),
            ACCUMULATE => accumulate::record(&mut pass, k, steps, p, max_x),
            FOLD => fold::record(&mut pass, k, binds, fold.as_ref(), work, p, max_x),
            COLLECT => fold::record_collect(&mut pass, k, steps, p, max_x),
            _ => reduce::record(&mut pass, k, steps, p, max_x),
        }
    }
    if let (true, Some((out, offset))) = (stages.contains(&ACCUMULATE), role.running) {
        enc.copy_buffer_to_buffer(&work.counts, p.workgroup_counts_offset(), out, offset, 12);
    }
    if let (true, Some((out, offset))) = (stages.contains(&REDUCE), role.sums) {
        reduce::copy_window_sums(enc, work, p, out, offset, role.point_bytes);
    }
}

/// Runs stage kernel `name` over a grid of (x, y) workgroups, with fold-step slot 0
/// bound (the stages other than fold, collect and the reduction's trees do not read
/// it).
fn dispatch(
    pass: &mut wgpu::ComputePass<'_>,
    k: &Kernels,
    steps: &wgpu::BindGroup,
    name: &str,
    (x, y): (u32, u32),
) {
    pass.set_pipeline(k.get(name));
    pass.set_bind_group(1, steps, &[0]);
    pass.dispatch_workgroups(x, y, 1);
}
