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
    /// `seed_per_bucket` points per bucket (`Tuning::seed_points_for` the group),
    /// `Pieces` above: in large BN254 G1 passes, loading every bucket's total costs the
    /// accumulation more than it saves the collect step; the other groups seed every
    /// later pass (docs/benchmark-log.md v40).
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

/// Threads of an accumulation workgroup (`@workgroup_size` of `accumulate`).
pub(crate) const ACCUMULATE_WG: u64 = 64;

impl Params {
    /// These parameters with the accumulation's chunks lengthened so that its
    /// workgroups make whole waves of `running`, the most workgroups the device has
    /// been seen running at once (0: not yet seen; the parameters are returned as they
    /// are).
    ///
    /// Every chunk is the same work, so the workgroups run in waves that end together:
    /// a dispatch of 2.3 waves takes about as long as 3, its last wave short of
    /// workgroups (and a device with few workgroups to run is short of the latency
    /// hiding that many give). Rounding down to whole waves (never more chunks than the
    /// plan has partials for) gives each thread a longer chunk and loses no time to a
    /// partial wave. A dispatch of less than one wave is left as it is. (The measured
    /// sawtooth of time against thread count is in docs/benchmark-log.md, v40.)
    pub(crate) fn in_whole_waves(mut self, running: u32) -> Params {
        let running = u64::from(running);
        if running == 0 || self.n == 0 {
            return self;
        }
        let windows = u64::from(self.num_windows);
        let groups = (windows * u64::from(self.chunks_per_window)).div_ceil(ACCUMULATE_WG);
        let waves = groups / running;
        if waves == 0 || groups % running == 0 {
            return self;
        }
        // Chunks a window that fill `waves` waves: fewer than now, as groups % running
        // is not zero.
        let chunks = (waves * running * ACCUMULATE_WG / windows).max(1) as u32;
        self.chunk_len = self.n.div_ceil(chunks);
        self.chunks_per_window = self.n.div_ceil(self.chunk_len);
        self
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
        let p = Params::new(&plan, 1 << 20, false);
        assert_eq!(p.heads, Heads::Seeded as u32);
        assert_eq!(Params::new(&plan, 1 << 20, true).heads, Heads::First as u32);
        // Every later pass of the groups other than BN254 G1 seeds, however large.
        let t = crate::msm::plan::tuning::Tuning::default();
        let dear = t.seed_points_for(crate::curve::GroupId::Bn254G2);
        assert_eq!(Heads::of_pass(false, u32::MAX, b, dear), Heads::Seeded);
        assert_eq!(t.seed_points_for(crate::curve::GroupId::Bn254G1), 32);
        let big = Plan::new(1 << 22, 16).unwrap();
        assert_eq!(
            Params::new(&big, 1 << 22, false).heads,
            Heads::Pieces as u32
        );
    }

    #[test]
    fn bucket_partials_one_a_chunk_where_every_pass_seeds() {
        // 2^20 points in 2^15 buckets: 32 a bucket, every later pass seeds its heads, and
        // a chunk leaves at most one bucket partial.
        let plan = Plan::new(1 << 20, 16).unwrap();
        assert!(plan.seeds_every_pass());
        assert_eq!(plan.bucket_partials(), plan.chunks_per_window);
        assert!(plan.bucket_partials() < plan.num_buckets);
        let p = Params::new(&plan, 1 << 20, false);
        assert_eq!(p.bucket_partials, plan.chunks_per_window);
        // 2^22 points leave later passes in pieces, one partial a bucket.
        let big = Plan::new(1 << 22, 16).unwrap();
        assert!(!big.seeds_every_pass());
        assert_eq!(big.bucket_partials(), big.num_buckets);
        // ...unless its buffers hold a pass that still seeds.
        let fewer = big.with_points(1 << 20);
        assert_eq!(fewer.bucket_partials(), fewer.chunks_per_window);
        assert!(fewer.scratch_bytes() < big.scratch_bytes());
        // Narrow windows, more chunks than buckets: one partial a bucket, the fewer,
        // whether or not every pass seeds.
        let dense = Plan::new(1 << 18, 10).unwrap();
        assert!(dense.chunks_per_window > dense.num_buckets);
        assert_eq!(dense.bucket_partials(), dense.num_buckets);
        let seeding = dense.with_points(64);
        assert!(seeding.seeds_every_pass());
        assert_eq!(seeding.bucket_partials(), seeding.num_buckets);
        // A group that seeds every pass however large (u32::MAX points a bucket).
        let t = crate::msm::plan::Threads {
            seed_points: u32::MAX,
            ..Default::default()
        };
        let g2 = Plan::shaped(1 << 22, 16, None, crate::msm::plan::Layout::Points, t).unwrap();
        assert_eq!(g2.bucket_partials(), g2.chunks_per_window);
        assert_eq!(Params::new(&g2, 1 << 22, false).heads, Heads::Seeded as u32);
    }

    #[test]
    fn whole_waves_lengthen_chunks_to_fill_the_last_wave() {
        // 8 windows of 2^21 entries in 16384 chunks of 128: 2048 workgroups.
        let plan = Plan::with_windows(1 << 20, 16, None, crate::msm::plan::Layout::Glv).unwrap();
        let p = Params::new(&plan, 1 << 20, true);
        assert_eq!(
            (p.num_windows, p.chunk_len, p.chunks_per_window),
            (8, 128, 16384)
        );
        let groups = |p: &Params| {
            (u64::from(p.num_windows) * u64::from(p.chunks_per_window)).div_ceil(ACCUMULATE_WG)
        };
        // 792 at once (an H200's 132 SMs, six each): 2.59 waves become 2.
        let w = p.in_whole_waves(792);
        assert!(groups(&w) <= 2 * 792 && groups(&w) > 2 * 792 - 8);
        assert!(u64::from(w.chunk_len) * u64::from(w.chunks_per_window) >= u64::from(w.n));
        assert_eq!(w.n, p.n);
        // Unknown, less than a wave, or whole waves already: unchanged.
        for running in [0, 4096, 1024, 512] {
            let same = p.in_whole_waves(running);
            assert_eq!((same.chunk_len, same.chunks_per_window), (128, 16384));
        }
    }
}
