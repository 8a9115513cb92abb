//! Encoding one pass (one chunk of at most `plan.capacity` points) of the MSM pipeline:
//! decompose -> scan -> scatter -> accumulate -> fold -> collect (into bucket totals that
//! persist over the MSM's passes), and on the MSM's last pass reduce, then copy the
//! window sums out. All stages run on the device; the host only combines the window
//! sums.

use super::plan::{Plan, CHUNK_LEN_RANGE, POINT_BYTES};
use super::working::{Working, FOLD_DISPATCH_BYTES, FOLD_STRIDE};
use crate::device::pipeline::Kernels;
use crate::shader::stages::{
    COLLECT, COLLECT_STEP, FOLD, REDUCE, REDUCE_GROUPS, REDUCE_WINDOWS, SCAN, SCAN_TILES, STAGES,
};

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
    pub segs_per_window: u32,
    pub groups_per_window: u32,
    pub first_window: u32,
    pub heads: u32,
    pub points: u32,
    pub entry_layout: u32,
}

/// How a pass's buckets reach the bucket totals (`HEADS_*` in msm_accumulate.wgsl).
///
/// Accumulation cuts a bucket into pieces (one run per chunk it touches); the bucket's
/// head is the run that starts it. Collect then adds the pieces of each bucket into its
/// total. `First` and `Seeded` spare collect most of that: a bucket lying within one
/// chunk is a single run, which accumulation stores as the bucket's total itself
/// (starting from the old total where there is one), and collect only sums the pieces
/// of buckets that span chunks, starting from zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum Heads {
    /// The MSM's first pass: the totals are zero, so a head starts from zero.
    First = 0,
    /// A later pass: a head starts from its bucket's total (one load in the branch
    /// where a thread changes buckets).
    Seeded = 1,
    /// A later pass where that load costs more than it saves: every head starts from
    /// zero and collect adds all pieces and the old total.
    Pieces = 2,
}

impl Heads {
    /// The mode of an MSM's pass of `n` points into `buckets` buckets per window:
    /// `First` for its first pass, then `Seeded` while the pass has at most
    /// [`seed_points_per_bucket`](super::tuning::seed_points_per_bucket) points per
    /// bucket, `Pieces` above. (Measured on an H200 at c = 16, BENCHMARKS.md v16:
    /// seeding every pass cost a 2^24 MSM's accumulation more than it saved in
    /// collect, while a 2^22 MSM on two devices, whose passes hold at most 2^20
    /// points, gained. Why larger passes lose is not measured; their loads of the
    /// totals may miss the cache more as their bases crowd it.)
    pub(crate) fn of_pass(first: bool, n: u32, buckets: u32) -> Heads {
        let per_bucket = super::tuning::seed_points_per_bucket() as u64;
        if first {
            Heads::First
        } else if u64::from(n) <= per_bucket * u64::from(buckets) {
            Heads::Seeded
        } else {
            Heads::Pieces
        }
    }
}

impl Params {
    /// The parameters of a pass of `points` points (at most `plan.capacity`); `first`
    /// when it is its MSM's first pass. A pass smaller than the plan's capacity gets
    /// shorter accumulation chunks, so that it still spreads over about as many
    /// threads, within the plan's chunk partials.
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
            segs_per_window: plan.segs_per_window,
            groups_per_window: plan.groups_per_window,
            first_window: plan.first_window,
            heads: Heads::of_pass(first, n, plan.num_buckets) as u32,
            points,
            entry_layout: plan.layout as u32,
        }
    }

    /// Whether collect runs a thread per chunk instead of one per bucket: outside
    /// `Pieces` passes, when a window has fewer chunks than buckets (`per_chunk` in
    /// msm_fold.wgsl; measured on an H200, BENCHMARKS.md v18 (f)).
    pub(crate) fn collect_per_chunk(&self) -> bool {
        self.heads != Heads::Pieces as u32 && self.chunks_per_window < self.num_buckets
    }

    /// Scan tiles per window (see [`plan::scan_tiles`](super::plan::scan_tiles)).
    pub(crate) fn scan_tiles(&self) -> u32 {
        super::plan::scan_tiles(self.num_buckets)
    }

    /// Byte offset of the window sums in the scratch buffer (where the reduction's
    /// thread shares were, after the bucket, chunk and group partials).
    pub(crate) fn window_sums_offset(&self) -> u64 {
        let w = u64::from(self.num_windows);
        POINT_BYTES
            * w
            * (u64::from(self.num_buckets)
                + u64::from(self.chunks_per_window)
                + 2 * u64::from(self.groups_per_window))
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

const _: () = assert!(
    COLLECT_STEP + 1 == super::working::FOLD_STEPS,
    "the last fold-step slot holds COLLECT"
);

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

/// Index of the accumulate stage in [`STAGES`] (an MSM's first pass clears the bucket
/// totals before it).
const ACCUMULATE: usize = 3;

/// Where a pass stands in its MSM: the first one starts the bucket totals from zero;
/// the last one reduces them and copies the window sums to `sums` (buffer, offset).
#[derive(Clone, Copy)]
pub(crate) struct Role<'a> {
    pub(crate) first: bool,
    pub(crate) sums: Option<(&'a wgpu::Buffer, u64)>,
}

/// The kernel sizing the fold steps on the device (msm_fold_args.wgsl): its pipeline
/// and bind group. It writes the working set's `fold_dispatch`.
pub(crate) struct FoldIndirect<'a> {
    pub(crate) pipeline: &'a wgpu::ComputePipeline,
    pub(crate) bind: &'a wgpu::BindGroup,
}

/// Records one pass (or `part` of it) into `enc`. `binds` hold this pass's inputs and
/// the working buffers; with `fold`, the fold steps are dispatched indirectly at the
/// sizes the device gives them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn encode(
    enc: &mut wgpu::CommandEncoder,
    k: &Kernels,
    binds: [&wgpu::BindGroup; 2],
    fold: Option<FoldIndirect<'_>>,
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
    let n = u64::from(p.n);
    let w = u64::from(p.num_windows);
    let grids: [(u32, u32); 7] = [
        grid(u64::from(p.points), max_x),
        (p.num_windows * p.scan_tiles(), 1),
        grid(n, max_x),
        grid(w * u64::from(p.chunks_per_window), max_x),
        (0, 0), // fold: one dispatch per step, below
        if p.collect_per_chunk() {
            grid(w * u64::from(p.chunks_per_window), max_x)
        } else {
            grid(w * u64::from(p.num_buckets), max_x)
        },
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
        if s == REDUCE && role.sums.is_none() {
            // Not the MSM's last pass: no reduction. The (empty) pass still writes its
            // timestamps, so that every query the job resolves was written.
            continue;
        }
        pass.set_bind_group(0, binds[0], &[]);
        if s == COLLECT {
            pass.set_pipeline(k.get("fold"));
            pass.set_bind_group(1, binds[1], &[COLLECT_STEP * FOLD_STRIDE as u32]);
            pass.dispatch_workgroups(x, y, 1);
            continue;
        }
        if s == SCAN {
            pass.set_bind_group(1, binds[1], &[0]);
            pass.set_pipeline(k.get(SCAN_TILES));
            pass.dispatch_workgroups(x, y, 1);
        }
        if s == FOLD && fold_steps > 0 {
            if let Some(f) = &fold {
                pass.set_pipeline(f.pipeline);
                pass.set_bind_group(0, f.bind, &[]);
                pass.dispatch_workgroups(1, 1, 1);
                pass.set_bind_group(0, binds[0], &[]);
            }
        }
        pass.set_pipeline(k.get(name));
        if s == FOLD {
            for step in 0..fold_steps {
                pass.set_bind_group(1, binds[1], &[step * FOLD_STRIDE as u32]);
                match &fold {
                    Some(_) => pass.dispatch_workgroups_indirect(
                        &work.fold_dispatch,
                        FOLD_DISPATCH_BYTES * u64::from(step),
                    ),
                    None => {
                        let pairs = u64::from(p.chunks_per_window).div_ceil(2u64 << step);
                        let (x, y) = grid(w * pairs, max_x);
                        pass.dispatch_workgroups(x, y, 1);
                    }
                }
            }
        } else {
            pass.set_bind_group(1, binds[1], &[0]);
            pass.dispatch_workgroups(x, y, 1);
        }
        if *name == "reduce" {
            // Then the thread shares of each window group, then the groups of each
            // window, in workgroups (msm_reduce.wgsl).
            pass.set_pipeline(k.get(REDUCE_GROUPS));
            pass.dispatch_workgroups(p.num_windows * p.groups_per_window, 1, 1);
            pass.set_pipeline(k.get(REDUCE_WINDOWS));
            pass.dispatch_workgroups(p.num_windows, 1, 1);
        }
    }
    if let (true, Some((out, offset))) = (stages.contains(&REDUCE), role.sums) {
        enc.copy_buffer_to_buffer(
            &work.scratch,
            p.window_sums_offset(),
            out,
            offset,
            p.window_sums_bytes(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_mode_by_pass_and_points_per_bucket() {
        let plan = Plan::new(1 << 20, 16).unwrap();
        let b = plan.num_buckets;
        assert_eq!(Heads::of_pass(true, 1 << 20, b), Heads::First);
        assert_eq!(Heads::of_pass(false, 32 * b, b), Heads::Seeded);
        assert_eq!(Heads::of_pass(false, 32 * b + 1, b), Heads::Pieces);
        let p = Params::new(&plan, 1 << 20, false);
        assert_eq!(p.heads, Heads::Seeded as u32);
        assert_eq!(Params::new(&plan, 1 << 20, true).heads, Heads::First as u32);
        let big = Plan::new(1 << 22, 16).unwrap();
        assert_eq!(
            Params::new(&big, 1 << 22, false).heads,
            Heads::Pieces as u32
        );
    }

    #[test]
    fn collect_maps_threads_to_the_fewer_of_chunks_and_buckets() {
        // 2^15 buckets a window, 2^13 chunks: a thread per chunk.
        let plan = Plan::new(1 << 20, 16).unwrap();
        let p = Params::new(&plan, 1 << 17, false);
        assert!(p.chunks_per_window < p.num_buckets && p.collect_per_chunk());
        // 2^9 buckets, thousands of chunks: a thread per bucket.
        let dense = Plan::new(1 << 18, 10).unwrap();
        let p = Params::new(&dense, 1 << 18, true);
        assert!(p.chunks_per_window > p.num_buckets && !p.collect_per_chunk());
        // Pieces passes collect every bucket.
        assert!(!Params::new(&Plan::new(1 << 22, 16).unwrap(), 1 << 22, false).collect_per_chunk());
    }
}
