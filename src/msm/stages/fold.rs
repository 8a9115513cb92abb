//! Host side of `msm_fold.wgsl` and `msm_fold_args.wgsl`: the runs of a bucket that
//! span chunks summed pairwise in steps (step s adds chunk runs 2^s apart), then
//! collected into the bucket totals. Where the device takes indirect dispatches, a
//! one-workgroup kernel sizes the steps from the pass's largest bucket, so unneeded
//! steps launch nothing; elsewhere every step is dispatched at its full size.

use super::accumulate::Heads;
use super::{grid, Params};
use crate::device::pipeline::Kernels;
use crate::msm::memory::working::{Working, FOLD_DISPATCH_BYTES, FOLD_STEPS, FOLD_STRIDE};
use crate::shader::stages::COLLECT_STEP;

const _: () = assert!(
    COLLECT_STEP + 1 == FOLD_STEPS,
    "the last fold-step slot holds COLLECT"
);

impl Params {
    /// Whether collect runs a thread per chunk instead of one per bucket: outside
    /// `Pieces` passes, when a window has fewer chunks than buckets (`per_chunk` in
    /// msm_fold.wgsl): the fewer threads, each with less to skip.
    pub(crate) fn collect_per_chunk(&self) -> bool {
        self.heads != Heads::Pieces as u32 && self.chunks_per_window < self.num_buckets
    }
}

/// The kernel sizing the fold steps on the device (msm_fold_args.wgsl): its pipeline
/// and bind group. It writes the working set's `fold_dispatch`.
pub(crate) struct FoldIndirect<'a> {
    pub(crate) pipeline: &'a wgpu::ComputePipeline,
    pub(crate) bind: &'a wgpu::BindGroup,
}

/// Records the fold steps, until one step spans all chunks of a window: sized by the
/// device through `fold` where given, else each at its full size.
pub(super) fn record(
    pass: &mut wgpu::ComputePass<'_>,
    k: &Kernels,
    binds: [&wgpu::BindGroup; 2],
    fold: Option<&FoldIndirect<'_>>,
    work: &Working,
    p: &Params,
    max_x: u32,
) {
    let fold_steps = 32 - p.chunks_per_window.saturating_sub(1).leading_zeros();
    if fold_steps > 0 {
        if let Some(f) = fold {
            pass.set_pipeline(f.pipeline);
            pass.set_bind_group(0, f.bind, &[]);
            pass.dispatch_workgroups(1, 1, 1);
            pass.set_bind_group(0, binds[0], &[]);
        }
    }
    pass.set_pipeline(k.get("fold"));
    let w = u64::from(p.num_windows);
    for step in 0..fold_steps {
        pass.set_bind_group(1, binds[1], &[step * FOLD_STRIDE as u32]);
        match fold {
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
}

/// Records the collect step (the fold kernel at [`COLLECT_STEP`]): a thread per chunk
/// or per bucket of every window, whichever [`Params::collect_per_chunk`] says.
pub(super) fn record_collect(
    pass: &mut wgpu::ComputePass<'_>,
    k: &Kernels,
    steps: &wgpu::BindGroup,
    p: &Params,
    max_x: u32,
) {
    let w = u64::from(p.num_windows);
    let threads = if p.collect_per_chunk() {
        w * u64::from(p.chunks_per_window)
    } else {
        w * u64::from(p.num_buckets)
    };
    let (x, y) = grid(threads, max_x);
    pass.set_pipeline(k.get("fold"));
    pass.set_bind_group(1, steps, &[COLLECT_STEP * FOLD_STRIDE as u32]);
    pass.dispatch_workgroups(x, y, 1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msm::plan::Plan;

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
