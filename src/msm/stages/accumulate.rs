//! Host side of `msm_accumulate.wgsl`: each thread sums a chunk of a window's sorted
//! entries into runs, one per bucket it touches, and how those runs reach the bucket
//! totals ([`Heads`]).

use super::{dispatch, grid, Params};
use crate::device::pipeline::Kernels;

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
    /// `seed_per_bucket` points per bucket (`Tuning::seed_points_per_bucket`),
    /// `Pieces` above: in large passes, loading every bucket's total costs the
    /// accumulation more than it saves the collect step (see docs/).
    pub(crate) fn of_pass(first: bool, n: u32, buckets: u32, seed_per_bucket: u32) -> Heads {
        let per_bucket = u64::from(seed_per_bucket);
        if first {
            Heads::First
        } else if u64::from(n) <= per_bucket * u64::from(buckets) {
            Heads::Seeded
        } else {
            Heads::Pieces
        }
    }
}

/// Records the accumulation: a thread per chunk of every window.
pub(super) fn record(
    pass: &mut wgpu::ComputePass<'_>,
    k: &Kernels,
    steps: &wgpu::BindGroup,
    p: &Params,
    max_x: u32,
) {
    let threads = u64::from(p.num_windows) * u64::from(p.chunks_per_window);
    dispatch(pass, k, steps, "accumulate", grid(threads, max_x));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msm::plan::Plan;

    #[test]
    fn heads_mode_by_pass_and_points_per_bucket() {
        let plan = Plan::new(1 << 20, 16).unwrap();
        let b = plan.num_buckets;
        assert_eq!(Heads::of_pass(true, 1 << 20, b, 32), Heads::First);
        assert_eq!(Heads::of_pass(false, 32 * b, b, 32), Heads::Seeded);
        assert_eq!(Heads::of_pass(false, 32 * b + 1, b, 32), Heads::Pieces);
        let p = Params::new(&plan, 1 << 20, false, 32);
        assert_eq!(p.heads, Heads::Seeded as u32);
        assert_eq!(
            Params::new(&plan, 1 << 20, true, 32).heads,
            Heads::First as u32
        );
        let big = Plan::new(1 << 22, 16).unwrap();
        assert_eq!(
            Params::new(&big, 1 << 22, false, 32).heads,
            Heads::Pieces as u32
        );
    }
}
