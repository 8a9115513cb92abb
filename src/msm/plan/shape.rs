//! The shape of a pass: its window width and windows, and how many accumulation
//! threads it aims for.

use super::{Layout, SCALAR_BITS, TARGET_THREADS};
use crate::curve::GroupId;

/// How many threads a device's passes aim for, and how their accumulation reaches the
/// bucket totals (from its [`Tuning`](super::tuning::Tuning)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Threads {
    /// 2^this accumulation threads a pass; `None`: [`accumulate_threads_log2`].
    pub accumulate_log2: Option<u32>,
    /// Bytes of workgroup memory a kernel may use on the device: the reduction's
    /// trees are sized to it ([`reduce_wg`](crate::shader::stages::reduce_wg)).
    pub workgroup_storage: u32,
    /// Points a bucket up to which a later pass seeds its bucket heads from the totals
    /// ([`Tuning::seed_points_for`](super::tuning::Tuning::seed_points_for) the plan's
    /// group): a plan whose passes never exceed it holds one bucket partial a chunk
    /// instead of one a bucket where that is fewer
    /// ([`Plan::bucket_partials`](super::Plan::bucket_partials)).
    pub seed_points: u32,
}

impl Default for Threads {
    fn default() -> Threads {
        Threads {
            accumulate_log2: None,
            workgroup_storage: u32::MAX,
            seed_points: super::tuning::SEED_POINTS_PER_BUCKET,
        }
    }
}

/// Windows of `c` bits a scalar has: ceil(255 / c) (signed digits need one bit of
/// headroom above the 254 bits of r).
pub fn window_count(c: u32) -> u32 {
    (SCALAR_BITS + 1).div_ceil(c.max(1))
}

/// The default window width for a pass of `n` points (entries: GLV passes ask with
/// twice their points, where [`glv_default_window_bits`] overrides it per group).
///
/// Small passes take narrow windows, where the reduction's per-thread depth (which grows
/// with the buckets, 2^(c-1)) dominates; from 2^17 entries to 2^19 the accumulation
/// and the sort already outweigh a reduction of 1024 buckets a window (c = 11); from
/// 2^20 the accumulation dominates and c = 16 is the best of 15..18 (see docs/).
pub fn default_window_bits(n: usize) -> u32 {
    let lg = usize::BITS - n.max(1).saturating_sub(1).leading_zeros();
    match lg {
        0..=16 => (lg / 2).clamp(4, 8),
        17..=19 => 11,
        _ => (lg - 4).min(16),
    }
}

/// Points from which an MSM on one device (whose passes hold at least
/// [`WIDE_WINDOW_MIN_PASS`] points) uses windows of [`WIDE_WINDOW_BITS`] bits.
pub const WIDE_WINDOW_FROM: usize = 1 << 21;
/// Smallest pass capacity that takes [`WIDE_WINDOW_BITS`].
pub const WIDE_WINDOW_MIN_PASS: usize = 1 << 20;
/// The window width of large MSMs.
pub const WIDE_WINDOW_BITS: u32 = 17;

/// The default window width for an MSM of `n` points (on one device) run in passes of
/// at most `cap` points: [`WIDE_WINDOW_BITS`] for large MSMs in large passes, else
/// [`default_window_bits`] of the pass.
///
/// A wider window means 15 windows instead of 16: fewer entries to sort and add, at the
/// price of twice the buckets to scan, collect and reduce, which a large MSM amortises
/// (see docs/).
pub fn window_bits_for(n: usize, cap: usize) -> u32 {
    if n >= WIDE_WINDOW_FROM && cap >= WIDE_WINDOW_MIN_PASS {
        WIDE_WINDOW_BITS
    } else {
        default_window_bits(n.min(cap))
    }
}

/// Passes up to this many points in [`Layout::Glv`] aim for half [`TARGET_THREADS`].
pub const GLV_FEWER_THREADS_MAX_PASS: u32 = 1 << 21;

/// log2 of the accumulation threads a pass of up to `capacity` points in `layout` aims
/// for: [`TARGET_THREADS`], or half of it for GLV passes of up to
/// [`GLV_FEWER_THREADS_MAX_PASS`] points, whose window rows (twice the entries in
/// half the buckets) then get chunks about twice as long: fewer pieces for the fold
/// and collect stages to add. Larger GLV passes keep [`TARGET_THREADS`]: their chunks
/// would grow to the longest the accumulation takes, which slows it (see docs/).
pub fn accumulate_threads_log2(layout: Layout, capacity: u32) -> u32 {
    let t = TARGET_THREADS.trailing_zeros();
    if layout == Layout::Glv && capacity <= GLV_FEWER_THREADS_MAX_PASS {
        t - 1
    } else {
        t
    }
}

/// The default window width for an MSM of `n` points over `group` in passes of at most
/// `cap`, in `layout`: [`window_bits_for`] for whole scalars; for GLV halves (twice the
/// entries a window, [`Layout::Glv`]) [`glv_default_window_bits`] of a pass's entries.
pub fn window_bits_in(group: GroupId, layout: Layout, n: usize, cap: usize) -> u32 {
    match layout {
        Layout::Glv => glv_default_window_bits(group, n.min(cap).saturating_mul(2)),
        Layout::Points | Layout::Pairs => window_bits_for(n, cap),
    }
}

/// The default window width of a GLV pass over `group` of `entries` entries a window
/// (twice its points), below the wider windows of [`glv_window_bits`]. The plan spreads
/// the halves' 128 bits over W = ceil(128 / c) windows (`Plan::full_windows`), so a width
/// stands for its window count: 10, 11, 12, 15 and 16 bits are 13, 12, 11, 9 and 8
/// windows. From 2^17 to 2^19 entries fewer windows (fewer additions) outweigh their
/// buckets' longer reduction, the more so the cheaper a group's reduction is: the G1
/// groups take 12 bits at 2^17 and 16 from 2^18, BN254 G2 11 and then 15, BLS12-381 G2
/// (the dearest additions) 11 up to 2^18 and 15 at 2^19; every group takes 10 at 2^15
/// and 2^16 (measured per group at 2^14-2^19 points: docs/benchmark-log.md, v51, v52).
/// Elsewhere the width [`default_window_bits`] gives the entries, at most 16 (8 windows
/// of 16 bits hold 128).
pub fn glv_default_window_bits(group: GroupId, entries: usize) -> u32 {
    use GroupId::{Bls12381G1, Bls12381G2, Bn254G1, Bn254G2};
    let lg = usize::BITS - entries.max(1).saturating_sub(1).leading_zeros();
    match (lg, group) {
        (15..=16, _) => 10,
        (17, Bn254G1 | Bls12381G1) => 12,
        (17, Bn254G2 | Bls12381G2) | (18, Bls12381G2) => 11,
        (18..=19, Bn254G1 | Bls12381G1) => 16,
        (18, Bn254G2) | (19, Bn254G2 | Bls12381G2) => 15,
        _ => default_window_bits(entries).min(16),
    }
}

/// Points from which [`glv_window_bits`] widens the windows of `group`: 2^22 for BN254
/// G2 and BLS12-381 G1, 2^23 for BN254 G1 (the cheapest addition, whose wider windows
/// save the least) and BLS12-381 G2 (whose 2^18 buckets a window cost the most to
/// reduce). Below these the longer reduction outweighs the additions the wider windows
/// save (docs/benchmark-log.md, v42 and v51).
pub fn wide_glv_from(group: GroupId) -> usize {
    match group {
        GroupId::Bn254G2 | GroupId::Bls12381G1 => 1 << 22,
        GroupId::Bn254G1 | GroupId::Bls12381G2 => 1 << 23,
    }
}
/// Smallest pass that takes the wider windows (the rule falls back to
/// [`window_bits_in`]'s as a memory budget shrinks the passes).
pub const WIDE_GLV_MIN_PASS: usize = 1 << 21;
/// The wider GLV window: 7 windows cover the 128 bits of the halves, against 8 of 16.
pub const WIDE_GLV_BITS: u32 = 19;
// Seven windows of it cover the 128 bits of the halves; six would not.
const _: () = assert!(7 * WIDE_GLV_BITS >= 128 && 6 * WIDE_GLV_BITS < 128);

/// The GLV window width for an MSM of `n` points over `group` in passes of at most `cap`:
/// [`WIDE_GLV_BITS`] from [`wide_glv_from`] points in passes of at least
/// [`WIDE_GLV_MIN_PASS`], whatever feeds the passes, else `None` (the width of
/// [`window_bits_in`]). Seven windows instead of eight (two of 19 bits and five of 18,
/// `Plan::full_windows`) are an eighth fewer additions in the accumulation, which there
/// outweighs eight times the buckets to sort into and reduce (a longer sort and
/// reduction, more run changes in the accumulation, whose first points the register
/// machine adds in step with the rest: `run_sum_madd`; docs/curves.md).
pub fn glv_window_bits(group: GroupId, layout: Layout, n: usize, cap: usize) -> Option<u32> {
    widened(
        layout,
        n,
        cap,
        wide_glv_from(group),
        WIDE_GLV_MIN_PASS,
        WIDE_GLV_BITS,
    )
}

/// `bits` for an MSM of `n` points in passes of at most `cap` where `layout` is GLV,
/// `n` at least `from` and `cap` at least `min_pass`, else `None`: the shape of both
/// rules that widen the GLV windows.
fn widened(
    layout: Layout,
    n: usize,
    cap: usize,
    from: usize,
    min_pass: usize,
    bits: u32,
) -> Option<u32> {
    (layout == Layout::Glv && n >= from && cap >= min_pass).then_some(bits)
}

/// The widest GLV window: 6 windows cover the 128 bits of the halves (two of 22 bits,
/// four of 21), against 7 of [`WIDE_GLV_BITS`].
pub const WIDEST_GLV_BITS: u32 = 22;
const _: () = assert!(6 * WIDEST_GLV_BITS >= 128 && 5 * WIDEST_GLV_BITS < 128);
/// Smallest pass that takes the widest windows.
pub const WIDEST_GLV_MIN_PASS: usize = 1 << 22;

/// Points from which [`widest_glv_window_bits`] widens the windows of `group` once more,
/// where its buckets fit: 2^24 for BN254 G1 (docs/benchmark-log.md, v55); none for the
/// other groups, whose 2^21 buckets a window exceed a 2 GiB binding.
pub fn widest_glv_from(group: GroupId) -> Option<usize> {
    match group {
        GroupId::Bn254G1 => Some(1 << 24),
        GroupId::Bn254G2 | GroupId::Bls12381G1 | GroupId::Bls12381G2 => None,
    }
}

/// The GLV window width an MSM of `n` points over `group` in passes of at most `cap`
/// takes where its buckets fit the device and the budget: [`WIDEST_GLV_BITS`] from
/// [`widest_glv_from`] points in passes of at least [`WIDEST_GLV_MIN_PASS`], else `None`
/// ([`glv_window_bits`]'s). Six windows instead of seven are a seventh fewer additions
/// in the accumulation for eight times the buckets to reduce, which the additions saved
/// outweigh only in the largest MSMs (docs/benchmark-log.md, v55).
pub fn widest_glv_window_bits(group: GroupId, layout: Layout, n: usize, cap: usize) -> Option<u32> {
    let from = widest_glv_from(group)?;
    widened(layout, n, cap, from, WIDEST_GLV_MIN_PASS, WIDEST_GLV_BITS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msm::plan::Plan;

    #[test]
    fn the_largest_bn254_g1_msms_take_the_widest_windows() {
        use GroupId::{Bls12381G1, Bls12381G2, Bn254G1, Bn254G2};
        let cap = 1 << 23;
        let widest = |g, layout, n, cap| widest_glv_window_bits(g, layout, n, cap);
        assert_eq!(
            widest(Bn254G1, Layout::Glv, 1 << 24, cap),
            Some(WIDEST_GLV_BITS)
        );
        // Smaller MSMs, small passes and whole scalars: the wider rule's.
        assert_eq!(widest(Bn254G1, Layout::Glv, (1 << 24) - 1, cap), None);
        assert_eq!(
            widest(Bn254G1, Layout::Glv, 1 << 24, WIDEST_GLV_MIN_PASS / 2),
            None
        );
        assert_eq!(widest(Bn254G1, Layout::Points, 1 << 24, cap), None);
        for g in [Bn254G2, Bls12381G1, Bls12381G2] {
            assert_eq!(widest(g, Layout::Glv, 1 << 26, cap), None, "{g:?}");
        }
        // Six windows of a GLV half: two of 22 bits and four of 21, 2^21 buckets each.
        let p = Plan::with_windows(cap as u32, WIDEST_GLV_BITS, None, Layout::Glv).unwrap();
        assert_eq!(
            (p.num_windows, p.window_bits, p.full_windows, p.num_buckets),
            (6, 22, 2, 1 << 21)
        );
    }

    #[test]
    fn large_glv_msms_take_wider_windows() {
        let cap = 1 << 22;
        assert_eq!(wide_glv_from(GroupId::Bn254G1), 1 << 23);
        assert_eq!(wide_glv_from(GroupId::Bn254G2), 1 << 22);
        assert_eq!(wide_glv_from(GroupId::Bls12381G1), 1 << 22);
        assert_eq!(wide_glv_from(GroupId::Bls12381G2), 1 << 23);
        for g in GroupId::ALL {
            let n = wide_glv_from(g);
            assert_eq!(glv_window_bits(g, Layout::Glv, n, cap), Some(WIDE_GLV_BITS));
            // Smaller MSMs, small passes (a tight budget) and whole scalars keep the rule.
            assert_eq!(glv_window_bits(g, Layout::Glv, n / 2, cap), None);
            assert_eq!(
                glv_window_bits(g, Layout::Glv, n, WIDE_GLV_MIN_PASS / 2),
                None
            );
            assert_eq!(glv_window_bits(g, Layout::Points, n, cap), None);
        }
    }

    #[test]
    fn glv_widths_below_the_wide_windows_are_per_group() {
        use GroupId::{Bls12381G1, Bls12381G2, Bn254G1, Bn254G2};
        let width = |g, n: usize| window_bits_in(g, Layout::Glv, n, n);
        // (points, BN254 G1, BLS12-381 G1, BN254 G2, BLS12-381 G2)
        for (n, widths) in [
            (1 << 13, [7, 7, 7, 7]),
            (1 << 14, [10, 10, 10, 10]),
            (1 << 15, [10, 10, 10, 10]),
            (1 << 16, [12, 12, 11, 11]),
            (1 << 17, [16, 16, 15, 11]),
            (1 << 18, [16, 16, 15, 15]),
            (1 << 19, [16, 16, 16, 16]),
            (1 << 22, [16, 16, 16, 16]),
        ] {
            let got = [Bn254G1, Bls12381G1, Bn254G2, Bls12381G2].map(|g| width(g, n));
            assert_eq!(got, widths, "{n} points");
        }
        // A pass's entries decide: 2^20 points in passes of 2^16.
        assert_eq!(window_bits_in(Bn254G1, Layout::Glv, 1 << 20, 1 << 16), 12);
    }

    #[test]
    fn large_msms_in_large_passes_take_wide_windows() {
        assert_eq!(window_bits_for(1 << 22, 1 << 21), WIDE_WINDOW_BITS);
        assert_eq!(window_bits_for(1 << 21, 1 << 20), WIDE_WINDOW_BITS);
        // Below the threshold, or in small passes: the pass's width.
        assert_eq!(
            window_bits_for(1 << 20, 1 << 20),
            default_window_bits(1 << 20)
        );
        assert_eq!(
            window_bits_for(1 << 22, 1 << 12),
            default_window_bits(1 << 12)
        );
        assert_eq!(window_bits_for(3000, 512), default_window_bits(512));
    }

    #[test]
    fn windows_cover_signed_digits() {
        for c in 2..=crate::msm::plan::MAX_WINDOW_BITS {
            let p = Plan::new(1024, c).unwrap();
            assert!(p.num_windows * c >= 255, "c={c}");
            assert!((p.num_windows - 1) * c < 255, "c={c}");
        }
        assert!(Plan::new(1024, 1).is_err());
        assert!(Plan::new(1024, crate::msm::plan::MAX_WINDOW_BITS + 1).is_err());
    }
}
