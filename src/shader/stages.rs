//! The MSM shader's shape as the host sees it: its stages in the order a pass runs
//! them, its entry points, and the workgroup sizes generated into its source.

use super::FqForm;
use crate::curve::GroupId;

/// Most points a reduction tree holds in workgroup memory (`REDUCE_WG` of
/// msm_reduce.wgsl is generated from [`reduce_wg`], at most this; a power of two): a
/// stage of the tree adds log2 of them levels, with half as many lanes.
pub const REDUCE_WG: u32 = 64;
const _: () = assert!(REDUCE_WG.is_power_of_two());
/// Fewest points of a reduction tree.
pub const REDUCE_WG_MIN: u32 = 8;

/// log2 of the fewest segments [`reduce_seg_log2`] cuts a wide window into: 2^14, so
/// that the walks of a pass's windows still fill a large GPU.
pub const WALK_SEGMENTS_LOG2: u32 = 14;

/// log2 of the buckets one thread of `reduce_walk` (msm_reduce.wgsl) walks before the
/// bit trees, in windows of `buckets` buckets: none up to 2^12 buckets, whose trees
/// alone take fewest rounds; above, segments of up to 16 buckets, at least 2^11 a
/// window, so that wide windows' sums run as chains over many threads (two additions a
/// bucket, as the trees' levels cost, without their rounds). Windows of more than 2^18
/// buckets keep 2^`WALK_SEGMENTS_LOG2` segments, longer walks (128 buckets at 2^21),
/// which still fill the GPU and leave the trees few segments: a tree level's additions
/// use fewer lanes as it rises.
pub fn reduce_seg_log2(buckets: u32) -> u32 {
    let levels = buckets.trailing_zeros();
    if levels <= 12 {
        0
    } else {
        let longest = 4.max(levels.saturating_sub(WALK_SEGMENTS_LOG2));
        (levels - 11).min(longest)
    }
}

/// Where the reduction of `windows` windows of `buckets` buckets, with trees of `wg`
/// points, keeps its points in scratch, counted from its first (msm_reduce.wgsl's
/// `tree_base`): `reduce_walk`'s segment sums (two a segment, where buckets are walked),
/// then the even stages' nodes, then the odd stages' (stage 0 writes the most). Returns
/// (where the last stage leaves the window sums, every point the reduction uses).
pub fn reduce_area(windows: u32, buckets: u32, wg: u32) -> (u64, u64) {
    let walk = match reduce_seg_log2(buckets) {
        0 => 0,
        e => 2 * u64::from(windows) * u64::from(buckets >> e),
    };
    let stages = tree_stages(buckets, wg);
    let out = |s: usize| stages.get(s).map_or(0, |t| t.out_points(windows));
    let last_is_odd = stages.len().is_multiple_of(2);
    (
        walk + if last_is_odd { out(0) } else { 0 },
        walk + out(0) + out(1),
    )
}

/// The log2 weight of each point the reduction leaves a window for the host, in the
/// order msm_reduce.wgsl writes them (the window sum is the sum of 2^weight times the
/// point; `None`: a point the sum does not take). Without a walk: the bit sums of the
/// buckets' indices (weight k for bit k), then their total (weight 0, the "+ 1" of
/// bucket b's weight b + 1). Walked in segments of 2^e buckets: the segments' sums
/// (weight 0), the bit sums of the segments' indices (weight e + k), then their total
/// (`None`).
pub fn window_sum_weights(buckets: u32, wg: u32) -> Vec<Option<u32>> {
    let values = tree_stages(buckets, wg).last().map_or(1, |t| t.p + t.q + 1);
    match reduce_seg_log2(buckets) {
        0 => (0..values - 1).map(Some).chain([Some(0)]).collect(),
        e => [Some(0)]
            .into_iter()
            .chain((0..values - 2).map(|k| Some(e + k)))
            .chain([None])
            .collect(),
    }
}

/// One stage of the reduction's bit trees (msm_reduce.wgsl's `tree_stage` computes the
/// same): it starts from nodes holding `p` values before their total (the bit sums done,
/// after a segment's sum where buckets are walked first) and makes a node of `q` more
/// levels from each block of 2^q of them, `blocks` a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeStage {
    /// Values before the total in a node the stage starts from.
    pub p: u32,
    /// Levels it adds.
    pub q: u32,
    /// Nodes it makes a window.
    pub blocks: u32,
}

impl TreeStage {
    /// Workgroups of the stage over `windows` windows: one per value of each block's
    /// nodes (its `p` values before the total, and the total).
    pub fn workgroups(&self, windows: u32) -> u64 {
        u64::from(windows) * u64::from(self.blocks) * u64::from(self.p + 1)
    }

    /// Points the stage writes over `windows` windows: `p + q + 1` values a node it makes.
    pub fn out_points(&self, windows: u32) -> u64 {
        u64::from(windows) * u64::from(self.blocks) * u64::from(self.p + self.q + 1)
    }
}

/// The stages of the reduction's bit trees over windows of `buckets` buckets (a power of
/// two, at least 2) with trees of `wg` points ([`reduce_wg`]), over the buckets or over
/// their segments ([`reduce_seg_log2`]): log2(wg) levels a stage, the last one the levels
/// left, until one node a window holds every bit sum of its segments' indices and its
/// total.
pub fn tree_stages(buckets: u32, wg: u32) -> Vec<TreeStage> {
    let seg = reduce_seg_log2(buckets);
    let levels = buckets.trailing_zeros() - seg;
    let first = u32::from(seg > 0);
    let per = wg.trailing_zeros();
    (0..levels.div_ceil(per))
        .map(|s| {
            let d = s * per;
            let q = per.min(levels - d);
            TreeStage {
                p: first + d,
                q,
                blocks: 1 << (levels - d - q),
            }
        })
        .collect()
}

/// Points of a reduction tree of `group`'s MSM on a device with `storage` bytes of
/// workgroup memory: the most, up to [`REDUCE_WG`], whose XYZZ points fit it in every
/// representation the group's kernels may hold Fq in ([`xyzz_register_bytes`]), and at
/// least [`REDUCE_WG_MIN`] (where even those do not fit, the kernel build reports the
/// device's limit). BN254 G2 with Portable32's small limbs takes 40 KiB at 64 points,
/// more than the 32 KiB of WebGPU in browsers, of Apple GPUs and of GL; at 32 it fits.
/// Every other group fits 32 KiB at 64.
pub fn reduce_wg(group: GroupId, storage: u32) -> u32 {
    let point = xyzz_register_bytes(group);
    let mut wg = REDUCE_WG;
    while wg > REDUCE_WG_MIN && u64::from(wg) * u64::from(point) > u64::from(storage) {
        wg /= 2;
    }
    wg
}

/// Whether the reduction's trees add with four warps a lane (reduce_add_coop.wgsl) on a
/// device with `storage` bytes of workgroup memory, for trees of `wg` points holding Fq
/// in `form`: on GPUs (`software` false: on a CPU the roles only take turns between
/// barriers), for the groups over Fq (G2's formulas run over Fq2 on the register
/// machine), where a tree's `wg / 2` lanes fill whole warps of 32 with each role and
/// the tree's points and the products of two levels (two points a lane) fit the
/// device's workgroup memory.
pub fn reduce_coop(group: GroupId, form: FqForm, wg: u32, storage: u32, software: bool) -> bool {
    !software
        && group.degree() == 1
        && wg / 2 >= 32
        && u64::from(wg) * 8 * u64::from(fq_register_bytes(group, form)) <= u64::from(storage)
}

/// Bytes of one element of `group`'s base field (Fq) in registers in `form`.
pub fn fq_register_bytes(group: GroupId, form: FqForm) -> u32 {
    use super::params::SMALL_LIMBS;
    4 * match form {
        FqForm::Radix29 => group.radix_limbs(),
        FqForm::Words => group.spec().limbs(),
        FqForm::Small => SMALL_LIMBS,
    }
}

/// Bytes of one XYZZ point of `group` in registers (and in the reduction's workgroup
/// array) in its largest Fq representation: radix-2^29 limbs (Wide64), 32-bit words or
/// small limbs (Portable32, where the group has them).
pub fn xyzz_register_bytes(group: GroupId) -> u32 {
    let small = group.has_small_limbs().then_some(FqForm::Small);
    let fq = [FqForm::Radix29, FqForm::Words]
        .into_iter()
        .chain(small)
        .map(|form| fq_register_bytes(group, form))
        .max()
        .unwrap_or(0);
    4 * group.degree() * fq
}
/// Threads in a scan workgroup (`SCAN_WG` of msm_sort.wgsl is generated from it).
pub const SCAN_WG: u32 = 256;
/// Counts each scan thread sums per tile (`SCAN_PER` of msm_sort.wgsl).
pub const SCAN_PER: u32 = 8;

/// log2 of the buckets of a fine scatter bin (`BIN_LOG2` of msm_sort.wgsl): the counters
/// `scatter_fine` keeps in workgroup memory, and the bits of an entry that carry its
/// bucket within the bin into `scatter_fine`.
pub const BIN_LOG2: u32 = 7;
/// log2 of the most bins one bin kernel sorts into (`BIN_MAX_LOG2` of msm_sort.wgsl):
/// the bin counters each keeps in workgroup memory, a lane each.
pub const BIN_MAX_LOG2: u32 = 8;
/// Most bins one bin kernel sorts into: `scatter_bins` a window's coarse bins,
/// `scatter_mid` the fine bins that follow its tile's first (so a coarse bin holds at
/// most this many fine bins).
pub const BIN_MAX: u32 = 1 << BIN_MAX_LOG2;
/// Threads of a bin workgroup (`BIN_WG` of msm_sort.wgsl): a lane per bin counter, as
/// many as a scan workgroup (the bin kernels share its lane scan).
pub const BIN_WG: u32 = BIN_MAX;
const _: () = assert!(BIN_WG == SCAN_WG);
/// Entries each thread of a bin kernel takes a tile (`BIN_PER`): tiles of 2048, eight
/// entries a bin at 256 bins (a 32-byte run of each bin's range), sorted in 8 KiB of
/// workgroup memory (12 KiB in all, within WebGPU's 16).
pub const BIN_PER: u32 = 8;
/// Tiles one workgroup of `scatter_bins` or `scatter_mid` takes in turn
/// (`BIN_TILES_WG`), each tile's entries loaded while the one before is sorted.
pub const BIN_TILES_WG: u32 = 2;
/// `scatter_bins` stages an entry's place in its tile in 16 bits.
const _: () = assert!(BIN_WG * BIN_PER <= 1 << 16);
/// The bit where a binned entry keeps its bucket within its fine bin (`BIN_SHIFT`): rows
/// of up to 2^BIN_SHIFT entries scatter in bins.
pub const BIN_SHIFT: u32 = 31 - BIN_LOG2;
const _: () = assert!(BIN_WG >= 1 << BIN_LOG2);
/// Fine bins one workgroup of the scatter's last kernel sorts in a pass of `n` entries a
/// window row over `buckets` buckets: as many as [`BIN_WG`] counters hold
/// ([`SCATTER_FINE_GROUP`]) where a fine bin holds at most a tile of entries on average
/// (a tile costs about the same full or nearly empty), else one ([`SCATTER_FINE`]: more
/// workgroups running at once).
pub fn fine_bins_a_group(n: u32, buckets: u32) -> u32 {
    if u64::from(n) <= u64::from((BIN_WG * BIN_PER) >> BIN_LOG2) * u64::from(buckets) {
        BIN_WG >> BIN_LOG2
    } else {
        1
    }
}

/// Most buckets a window may have to scatter in bins: [`BIN_MAX`] coarse bins of
/// [`BIN_MAX`] fine bins each.
pub const BINS_MAX_BUCKETS: u32 = (BIN_MAX * BIN_MAX) << BIN_LOG2;
/// `scatter_bins` stages an entry's bucket within its coarse bin in 15 bits.
const _: () = assert!(BINS_MAX_BUCKETS / BIN_MAX <= 1 << 15);

/// log2 of the buckets of a coarse scatter bin in a window of `buckets` buckets (the
/// `coarse_log2` of msm_sort.wgsl computes the same): a fine bin's, or as many more
/// bits as keep the window within [`BIN_MAX`] coarse bins. Wider than a fine bin, the
/// scatter sorts each coarse bin into its fine bins (`scatter_mid`) between the two.
pub fn coarse_bin_log2(buckets: u32) -> u32 {
    let bits = u32::BITS - (buckets.max(2) - 1).leading_zeros();
    BIN_LOG2.max(bits.saturating_sub(BIN_MAX_LOG2))
}

/// Whether a window of `buckets` buckets scatters through nested bins: coarse bins wider
/// than fine ones, with `scatter_mid` between `scatter_bins` and `scatter_fine` (the
/// `bins_are_nested` of msm_sort.wgsl).
pub fn bins_are_nested(buckets: u32) -> bool {
    coarse_bin_log2(buckets) > BIN_LOG2
}

/// Names of the timed stages, in order (each one compute pass).
pub(crate) const STAGES: [&str; 7] = [
    "decompose",
    "scan",
    "scatter",
    "accumulate",
    "fold",
    "collect",
    "reduce",
];

/// Index of the reduce stage in [`STAGES`] (run on an MSM's last pass only).
pub(crate) const REDUCE: usize = 6;

/// The scatter in bins' kernels (msm_sort.wgsl): entries into coarse bins, coarse bins
/// into fine ones (where they differ), fine bins into buckets.
pub(crate) const SCATTER_BINS: &str = "scatter_bins";
pub(crate) const SCATTER_MID: &str = "scatter_mid";
pub(crate) const SCATTER_FINE: &str = "scatter_fine";
/// `scatter_fine` with [`fine_bins_a_group`]'s larger count of fine bins a workgroup.
pub(crate) const SCATTER_FINE_GROUP: &str = "scatter_fine_group";

/// The first kernel of the scan stage (each tile's count total; the stage's own kernel,
/// `scan`, then scans each tile from the totals before it).
pub(crate) const SCAN_TILES: &str = "scan_tiles";

/// The reduction's first kernel where windows are walked in segments
/// ([`reduce_seg_log2`]).
pub(crate) const REDUCE_WALK: &str = "reduce_walk";

/// Index of the decompose stage in [`STAGES`].
pub(crate) const DECOMPOSE: usize = 0;

/// Index of the scatter stage in [`STAGES`].
pub(crate) const SCATTER: usize = 2;

/// Index of the accumulate stage in [`STAGES`].
pub(crate) const ACCUMULATE: usize = 3;

/// Index of the scan stage in [`STAGES`].
pub(crate) const SCAN: usize = 1;

/// Index of the fold stage in [`STAGES`].
pub(crate) const FOLD: usize = 4;

/// Index of the collect stage in [`STAGES`]: the fold kernel at step [`COLLECT_STEP`].
pub(crate) const COLLECT: usize = 5;

/// The fold step value that makes the fold kernel collect (`COLLECT` in msm_fold.wgsl).
pub(crate) const COLLECT_STEP: u32 = 31;

/// Every entry point of the MSM shader: the stages (but collect, which the fold kernel
/// runs) plus the scan's first kernel, the scatter in bins' four and the reduction's
/// walk over segments.
pub(crate) fn entry_points() -> Vec<String> {
    STAGES
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != COLLECT)
        .map(|(_, s)| s)
        .chain(&[
            SCAN_TILES,
            SCATTER_BINS,
            SCATTER_MID,
            SCATTER_FINE,
            SCATTER_FINE_GROUP,
            REDUCE_WALK,
        ])
        .map(|s| s.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_trees_add_with_four_warps_where_their_products_fit() {
        use FqForm::{Radix29, Small, Words};
        // BN254 G1 in radix 2^29 (36-byte Fq): 18 KiB at 64 points, within 32 KiB.
        assert_eq!(fq_register_bytes(GroupId::Bn254G1, Radix29), 36);
        assert!(reduce_coop(GroupId::Bn254G1, Radix29, 64, 32 << 10, false));
        assert!(!reduce_coop(GroupId::Bn254G1, Radix29, 64, 16 << 10, false));
        // Small limbs (80-byte Fq): 40 KiB, within NVIDIA's 48.
        assert!(reduce_coop(GroupId::Bn254G1, Small, 64, 48 << 10, false));
        assert!(!reduce_coop(GroupId::Bn254G1, Small, 64, 32 << 10, false));
        // A tree's lanes (half its points) fill whole warps of 32 only from 64 points on.
        assert!(!reduce_coop(GroupId::Bn254G1, Words, 32, 48 << 10, false));
        // G2's formulas run over Fq2: lanes add alone.
        assert!(!reduce_coop(GroupId::Bn254G2, Radix29, 64, 48 << 10, false));
        assert!(reduce_coop(
            GroupId::Bls12381G1,
            Radix29,
            64,
            48 << 10,
            false
        ));
        // Software adapters: never.
        assert!(!reduce_coop(GroupId::Bn254G1, Radix29, 64, 48 << 10, true));
    }

    #[test]
    fn tree_stages_cover_every_level_once() {
        // 2^11 buckets in trees of 64 points: six levels, then five.
        assert_eq!(
            tree_stages(1 << 11, 64),
            [
                TreeStage {
                    p: 0,
                    q: 6,
                    blocks: 32
                },
                TreeStage {
                    p: 6,
                    q: 5,
                    blocks: 1
                }
            ]
        );
        // The host's weights: bits 0..10, then the total (weight 1).
        let w: Vec<_> = (0..11).map(Some).chain([Some(0)]).collect();
        assert_eq!(window_sum_weights(1 << 11, 64), w);
        // 2^15 buckets in segments of 16: a segment's sum and six levels, then five.
        assert_eq!(reduce_seg_log2(1 << 15), 4);
        assert_eq!(reduce_seg_log2(1 << 18), 4);
        assert_eq!(reduce_seg_log2(1 << 21), 7);
        // The segments' sum (weight 1), the segment indices' bits (from 2^4), no total.
        let w: Vec<_> = [Some(0)]
            .into_iter()
            .chain((4..15).map(Some))
            .chain([None])
            .collect();
        assert_eq!(window_sum_weights(1 << 15, 64), w);
        assert_eq!(
            tree_stages(1 << 15, 64),
            [
                TreeStage {
                    p: 1,
                    q: 6,
                    blocks: 32
                },
                TreeStage {
                    p: 7,
                    q: 5,
                    blocks: 1
                }
            ]
        );
        for wg in [8, 16, 32, 64] {
            for levels in 1..=21 {
                let seg = reduce_seg_log2(1 << levels);
                assert!(seg == 0 || levels - seg >= 11, "{levels}");
                // Segments of 16 buckets up to 2^18, then 2^14 segments a window.
                assert!(seg <= 4 || levels - seg == WALK_SEGMENTS_LOG2, "{levels}");
                let stages = tree_stages(1 << levels, wg);
                let first = u32::from(seg > 0);
                let mut p = first;
                for (i, t) in stages.iter().enumerate() {
                    assert_eq!(t.p, p, "{wg} {levels} {i}");
                    assert!(t.q >= 1 && 1 << t.q <= wg, "{wg} {levels} {i}");
                    p += t.q;
                    assert_eq!(t.blocks, 1 << (levels - seg + first - p));
                    // A level's additions fit the tree's lanes and its values its points.
                    for l in 1..=t.q {
                        assert!((1 << (t.q - l)) * l <= wg / 2);
                        assert!((1 << (t.q - l)) * (l + 1) <= wg);
                    }
                }
                assert_eq!(p, levels - seg + first, "{wg} {levels}");
                // Stage 0 writes the most (msm_reduce.wgsl places the odd stages after it).
                let out = |t: &TreeStage| t.out_points(1);
                assert!(stages.iter().all(|t| out(t) <= out(&stages[0])));
            }
        }
    }

    #[test]
    fn scatter_fine_sorts_two_fine_bins_a_workgroup_where_they_hold_under_a_tile() {
        // Two bins of 128 buckets fill the 256 counters of a workgroup.
        assert_eq!(BIN_WG >> BIN_LOG2, 2);
        // BN254 G1's 22-bit windows (2^21 buckets): a pass of 2^22 GLV points (2^23
        // entries a row, 512 a fine bin) and of 2^23 (1,024) take two a workgroup; the
        // 19-bit windows of 2^26 under 1 GiB too (2.75 M entries, about 1,340 a bin).
        assert_eq!(fine_bins_a_group(1 << 23, 1 << 21), 2);
        assert_eq!(fine_bins_a_group(1 << 24, 1 << 21), 2);
        assert_eq!(fine_bins_a_group(11 << 18, 1 << 18), 2);
        // 19-bit windows over 2^23 entries (4,096 a bin) take one, as do the 16-bit
        // windows of 2^20 points (8,192).
        assert_eq!(fine_bins_a_group(1 << 23, 1 << 18), 1);
        assert_eq!(fine_bins_a_group(1 << 21, 1 << 15), 1);
        // The boundary: 16 entries a bucket on average, a tile a bin.
        let per_bucket = (BIN_WG * BIN_PER) >> BIN_LOG2;
        assert_eq!(per_bucket, 16);
        assert_eq!(fine_bins_a_group(per_bucket << 12, 1 << 12), 2);
        assert_eq!(fine_bins_a_group((per_bucket << 12) + 1, 1 << 12), 1);
    }

    #[test]
    fn coarse_bins_keep_a_window_within_bin_max() {
        // Up to 16-bit windows (2^15 buckets) coarse bins are fine bins.
        for buckets in [1, 2, 1 << 12, 3 << 12, 1 << 15] {
            assert_eq!(coarse_bin_log2(buckets), BIN_LOG2, "{buckets}");
        }
        assert_eq!(coarse_bin_log2((1 << 15) + 1), BIN_LOG2 + 1);
        assert_eq!(coarse_bin_log2(1 << 18), 10);
        assert_eq!(coarse_bin_log2(BINS_MAX_BUCKETS), 15);
        for buckets in [
            1 << 12,
            (1 << 15) + 1,
            1 << 16,
            3 << 16,
            1 << 18,
            BINS_MAX_BUCKETS,
        ] {
            let coarse = buckets.div_ceil(1 << coarse_bin_log2(buckets));
            assert!(coarse <= BIN_MAX, "{buckets}");
            assert!(
                1 << (coarse_bin_log2(buckets) - BIN_LOG2) <= BIN_MAX,
                "{buckets}"
            );
        }
    }

    #[test]
    fn reduction_workgroups_fit_the_device() {
        // NVIDIA's 48 KiB: every group at 64 threads.
        for g in GroupId::ALL {
            assert_eq!(reduce_wg(g, 48 << 10), 64, "{g}");
        }
        // 32 KiB (WebGPU, Apple, GL): BN254 G2's small limbs (640 bytes a point) at 32.
        assert_eq!(xyzz_register_bytes(GroupId::Bn254G2), 640);
        assert_eq!(reduce_wg(GroupId::Bn254G2, 32 << 10), 32);
        assert_eq!(reduce_wg(GroupId::Bls12381G2, 32 << 10), 64);
        assert_eq!(reduce_wg(GroupId::Bn254G1, 32 << 10), 64);
        // WebGPU's guaranteed 16 KiB.
        assert_eq!(reduce_wg(GroupId::Bn254G1, 16 << 10), 32);
        assert_eq!(reduce_wg(GroupId::Bls12381G2, 16 << 10), 32);
        assert_eq!(reduce_wg(GroupId::Bn254G2, 16 << 10), 16);
        // Never below the minimum.
        assert_eq!(reduce_wg(GroupId::Bn254G2, 1024), REDUCE_WG_MIN);
    }
}
