//! Planning: sizing an MSM pass (window width, windows, buckets, chunking and buffer
//! sizes) from the number of points, the device's limits and the memory budget, and
//! cutting an MSM into passes. Pure arithmetic, tested on the CPU. `layout` says what a
//! window row's entries are, `shape` chooses window widths and thread counts,
//! `passes` the sizes of an MSM's passes, `tuning` the per-device settings, `windows`
//! splits scalars by windows on the host.

use crate::curve::GroupId;
use crate::error::{Error, Result};
use std::ops::Range;

mod choose;
mod layout;
mod overrides;
mod passes;
mod shape;
pub mod tuning;
pub(crate) mod windows;

pub use choose::{choose, choose_for, DeviceLimits};
pub use layout::Layout;
pub(crate) use passes::{growing_passes, overlapped, pass_sizes};
pub use shape::{
    accumulate_threads_log2, default_window_bits, glv_default_window_bits, glv_window_bits,
    wide_glv_from, widest_glv_from, widest_glv_window_bits, window_bits_for, window_bits_in,
    window_count, Threads, GLV_FEWER_THREADS_MAX_PASS, WIDEST_GLV_BITS, WIDEST_GLV_MIN_PASS,
    WIDE_GLV_BITS, WIDE_GLV_MIN_PASS, WIDE_WINDOW_BITS, WIDE_WINDOW_FROM, WIDE_WINDOW_MIN_PASS,
};
/// Widest window a plan takes, in bits: 2^21 buckets a window, which still scatter
/// through bins ([`BINS_MAX_BUCKETS`]).
pub const MAX_WINDOW_BITS: u32 = 22;
const _: () = assert!(1 << (MAX_WINDOW_BITS - 1) <= BINS_MAX_BUCKETS);

/// Bits in a BN254 scalar (r < 2^254; a group's: `GroupId::scalar_bits`).
pub const SCALAR_BITS: u32 = 254;
/// Accumulation threads a pass aims for by default (enough to fill a large GPU; more
/// only adds chunk partials and run flushes); a device's
/// `Tuning::accumulate_threads_log2` overrides it.
pub const TARGET_THREADS: u64 = 1 << 18;
/// Words of the counts buffer after the W * B bucket counters: the pass's largest
/// bucket, then the accumulation's workgroups counted in, counted out, and the most
/// running at once.
pub const COUNTS_AFTER_BUCKETS: u64 = 4;
/// Bounds of the entries one accumulation thread sums.
pub const CHUNK_LEN_RANGE: (u32, u32) = (16, 512);
pub use crate::shader::stages::{
    reduce_area, reduce_seg_log2, reduce_wg, tree_stages, window_sum_weights, xyzz_register_bytes,
    TreeStage, BINS_MAX_BUCKETS, BIN_LOG2, BIN_MAX, BIN_SHIFT, REDUCE_WG, REDUCE_WG_MIN, SCAN_PER,
    SCAN_WG,
};
/// Largest pass we plan, in points.
pub const MAX_PASS_LOG2: u32 = 24;
/// Bytes of one BN254 affine base on the device (a group's: `GroupId::base_bytes`).
pub const BASE_BYTES: u64 = 64;
/// Bytes of one scalar on the device (a group's: `GroupId::scalar_bytes`).
pub const SCALAR_BYTES: u64 = 32;
/// Bytes of one BN254 XYZZ point on the device (a group's: `GroupId::point_bytes`).
pub const POINT_BYTES: u64 = 128;
/// Bytes of one pass's parameter slot (the uniform-offset alignment).
pub const PARAMS_SLOT: u64 = 256;
/// Bytes of one chunk's on-curve flag slot (the storage-offset alignment).
pub const FLAG_SLOT: u64 = 256;
/// Most buckets a window may have for its scatter to place entries by the ranks the
/// decompose stage counted ([`ScatterMode::Ranks`]): up to windows of 13 bits, whose
/// small MSMs are bound by the contention on few counters. Wider windows go through bins
/// or take atomic cursors: there the decompose stage's returned counts cost what they
/// save.
pub const RANKS_MAX_BUCKETS: u32 = 1 << 12;
/// Most entries a window row may have for its scatter to go through bins: a binned
/// entry keeps its bucket within the bin above its index.
pub const BINS_MAX_ROW: u64 = 1 << BIN_SHIFT;

/// How a pass's scatter places each entry in its bucket's range of the window row (the
/// discriminants are `SCATTER_*` of msm_params.wgsl).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScatterMode {
    /// At the rank the decompose stage's count gave it (up to [`RANKS_MAX_BUCKETS`]
    /// buckets): small MSMs, where few buckets make thousands of entries contend for
    /// each counter.
    Ranks = 1,
    /// Through bins (up to [`BINS_MAX_BUCKETS`], rows of up to [`BINS_MAX_ROW`]
    /// entries): a tile of entries sorted by coarse bin (at most [`BIN_MAX`] a window)
    /// in workgroup memory and written to ranges of the bins reserved a tile at a time;
    /// where coarse bins are wider than fine ones (2^[`BIN_LOG2`] buckets), each coarse
    /// bin's entries sorted into its fine bins the same way; then each fine bin's
    /// entries sorted by bucket, so that stores go out in runs rather than a word
    /// anywhere in the row.
    Bins = 2,
    /// By an atomic cursor a bucket, consumed downwards (longer rows, whose entry
    /// indices leave no room for a bucket within a bin, and wider windows).
    Cursors = 0,
}

impl ScatterMode {
    /// The mode of windows of `buckets` buckets in rows of up to `row` entries.
    pub fn of(buckets: u32, row: u64) -> ScatterMode {
        if buckets <= RANKS_MAX_BUCKETS {
            ScatterMode::Ranks
        } else if buckets <= BINS_MAX_BUCKETS && row <= BINS_MAX_ROW {
            ScatterMode::Bins
        } else {
            ScatterMode::Cursors
        }
    }

    /// Whether the mode needs the digit buffer's second region (the ranks, or the
    /// binned entries).
    pub fn doubles_digits(self) -> bool {
        self != ScatterMode::Cursors
    }
}

/// Shape of one pass over at most `points` points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    /// The group (its sizes: bases, points, scalar bits).
    pub group: GroupId,
    /// Points the pass's shape is made for (a power of two, >= 64): its windows, chunk
    /// length and scatter mode.
    pub capacity: u32,
    /// Points the buffers hold, the most a pass takes: `capacity`, or fewer where a
    /// memory budget holds more than half of `capacity` but not all of it
    /// ([`Plan::with_points`]).
    pub points: u32,
    /// What the window rows' entries are.
    pub layout: Layout,
    /// Window width c: the widest window's (see [`Plan::full_windows`]). Where the plan
    /// computes every window it is the narrowest width that keeps the asked width's
    /// window count (ceil(B / W) for B bits in W windows).
    pub window_bits: u32,
    /// First window computed (0 unless the MSM asked for a range of windows).
    pub first_window: u32,
    /// Windows computed, W: all ceil((bits + 1) / c) of them for scalars of `bits` bits
    /// (signed digits need one bit of headroom) unless the MSM asked for a range.
    pub num_windows: u32,
    /// Windows of the scalar, from window 0, that are c bits wide; the ones above are
    /// c - 1 bits ([`Plan::window_width`]). Where the plan computes every window, they
    /// cover exactly the bits the digits need, so that no window is much narrower than
    /// the others: a narrow top window (7 bits of a GLV half in 11-bit windows) has few
    /// buckets, each holding many entries, and the fold's steps grow with the longest
    /// bucket. Where the MSM asked for a range of windows, every window is c bits
    /// (the split by windows, `plan::windows`, counts in whole windows of c bits).
    pub full_windows: u32,
    /// Buckets per window B = 2^(c-1).
    pub num_buckets: u32,
    /// Sorted entries one accumulation thread sums, L (a power of two): about
    /// W * entries / TARGET_THREADS (or its tuning knob), within CHUNK_LEN_RANGE.
    pub chunk_len: u32,
    /// Accumulation chunks per window C = entries / L (entries: capacity times the
    /// layout's entries a point).
    pub chunks_per_window: u32,
    /// Points of a reduction tree ([`reduce_wg`] of the device): the reduction runs
    /// [`Plan::tree_stages`] of log2 of them levels.
    pub reduce_wg: u32,
    /// Points a bucket up to which a later pass seeds its bucket heads from the totals
    /// ([`Threads::seed_points`]); above it a pass leaves every bucket in pieces.
    pub seed_points: u32,
}

/// Scan tiles of a window of `buckets` buckets, T = ceil(B / (SCAN_WG * SCAN_PER)): the
/// scan runs one workgroup per tile (msm_sort.wgsl computes the same).
pub fn scan_tiles(buckets: u32) -> u32 {
    buckets.div_ceil(SCAN_WG * SCAN_PER)
}

impl Plan {
    /// A plan for passes of up to `capacity` points with windows of `c` bits.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] when `c` is outside 2..=[`MAX_WINDOW_BITS`].
    pub fn new(capacity: u32, c: u32) -> Result<Plan> {
        Plan::with_windows(capacity, c, None, Layout::Points)
    }

    /// [`Plan::new`] in `layout`, computing only the windows in `windows` (all when
    /// `None`; in [`Layout::Glv`], window w covers the same bits of both halves).
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] when `c` is outside 2..=[`MAX_WINDOW_BITS`] or the range
    /// is empty or beyond the last window.
    pub fn with_windows(
        capacity: u32,
        c: u32,
        windows: Option<&Range<u32>>,
        layout: Layout,
    ) -> Result<Plan> {
        Plan::shaped(capacity, c, windows, layout, Threads::default())
    }

    /// [`Plan::with_windows`] with a device's thread counts (its tuning's).
    ///
    /// # Errors
    /// As [`Plan::with_windows`].
    pub fn shaped(
        capacity: u32,
        c: u32,
        windows: Option<&Range<u32>>,
        layout: Layout,
        threads: Threads,
    ) -> Result<Plan> {
        Plan::shaped_for(GroupId::Bn254G1, capacity, c, windows, layout, threads)
    }

    /// [`Plan::shaped`] for an MSM over `group`.
    ///
    /// # Errors
    /// As [`Plan::with_windows`].
    pub fn shaped_for(
        group: GroupId,
        capacity: u32,
        c: u32,
        windows: Option<&Range<u32>>,
        layout: Layout,
        threads: Threads,
    ) -> Result<Plan> {
        if !(2..=MAX_WINDOW_BITS).contains(&c) {
            return Err(Error::InvalidConfig(format!(
                "window_bits {c} outside 2..={MAX_WINDOW_BITS}"
            )));
        }
        let capacity = capacity.max(64).next_power_of_two();
        let all = layout.window_count_for(group, c);
        let (first_window, num_windows) = match windows {
            None => (0, all),
            Some(r) if r.start < r.end && r.end <= all => (r.start, r.end - r.start),
            Some(r) => {
                return Err(Error::InvalidConfig(format!(
                    "windows {r:?}: not a non-empty range within 0..{all} (c = {c})"
                )))
            }
        };
        // Where every window is computed, c shrinks to the widest window the W windows
        // need (ceil(B / W) for B bits: 20 bits are seven windows of 19 or 18 for a GLV
        // half), and windows 0..full of c bits and the rest of c - 1 cover the B bits
        // when full c + (W - full)(c - 1) >= B: full = B - W (c - 1), within 1..=W.
        let (c, full_windows) = match windows {
            None => {
                let bits = layout.digit_bits(group);
                let c = bits.div_ceil(all);
                (c, bits - all * (c - 1))
            }
            Some(_) => (c, all),
        };
        let num_buckets = 1u32 << (c - 1);
        let row = capacity * layout.entries_per_point();
        let entries = u64::from(num_windows) * u64::from(row);
        let threads_log2 = threads
            .accumulate_log2
            .unwrap_or_else(|| accumulate_threads_log2(layout, capacity));
        let chunk_len = (entries >> threads_log2.min(30))
            .next_power_of_two()
            .clamp(u64::from(CHUNK_LEN_RANGE.0), u64::from(CHUNK_LEN_RANGE.1))
            as u32;
        Ok(Plan {
            group,
            capacity,
            points: capacity,
            layout,
            window_bits: c,
            first_window,
            num_windows,
            full_windows,
            num_buckets,
            chunk_len,
            chunks_per_window: row.div_ceil(chunk_len),
            reduce_wg: reduce_wg(group, threads.workgroup_storage),
            seed_points: threads.seed_points,
        })
    }

    /// Width in bits of window `w` of the scalar (counted from window 0, not from
    /// `first_window`): c for the first [`Plan::full_windows`], c - 1 above.
    pub fn window_width(&self, w: u32) -> u32 {
        self.window_bits - u32::from(w >= self.full_windows)
    }

    /// The stages of the reduction's bit trees over this plan's windows
    /// ([`tree_stages`]).
    pub fn tree_stages(&self) -> Vec<TreeStage> {
        tree_stages(self.num_buckets, self.reduce_wg)
    }

    /// The weights of the points the reduction leaves a window for the host
    /// ([`window_sum_weights`]).
    pub fn window_sum_weights(&self) -> Vec<Option<u32>> {
        window_sum_weights(self.num_buckets, self.reduce_wg)
    }

    /// Scan tiles per window (see [`scan_tiles`]).
    pub fn scan_tiles(&self) -> u32 {
        scan_tiles(self.num_buckets)
    }

    /// Bytes of the offsets buffer: W * (B + 1) bucket offsets, then W * T tile totals.
    pub fn offsets_bytes(&self) -> u64 {
        let w = u64::from(self.num_windows);
        4 * w * (u64::from(self.num_buckets) + 1 + u64::from(self.scan_tiles()))
    }

    /// Bytes of the counts buffer: W * B bucket counters, then
    /// [`COUNTS_AFTER_BUCKETS`] words (the pass's largest bucket and the accumulation's
    /// workgroup counts, msm_bindings.wgsl).
    pub fn counts_bytes(&self) -> u64 {
        4 * (u64::from(self.num_windows) * u64::from(self.num_buckets) + COUNTS_AFTER_BUCKETS)
    }

    /// Entries of one window row as the buffers hold it (`points` times the layout's
    /// entries a point).
    pub fn row_capacity(&self) -> u64 {
        u64::from(self.points) * u64::from(self.layout.entries_per_point())
    }

    /// This plan with buffers for `points` points (at least 64, at most `capacity`):
    /// the same shape, fewer bytes. Every stage sizes its work by its pass's points,
    /// so a pass of up to `points` runs as it would under `capacity`.
    pub fn with_points(self, points: u32) -> Plan {
        Plan {
            points: points.clamp(64, self.capacity),
            ..self
        }
    }

    /// Bytes of the sorted-entry buffer: one word an entry.
    pub fn entries_bytes(&self) -> u64 {
        4 * u64::from(self.num_windows) * self.row_capacity()
    }

    /// How the pass's scatter places entries ([`ScatterMode::of`] its buckets and the
    /// rows of its shape).
    pub fn scatter_mode(&self) -> ScatterMode {
        let row = u64::from(self.capacity) * u64::from(self.layout.entries_per_point());
        ScatterMode::of(self.num_buckets, row)
    }

    /// Bytes of the digit buffer: a word an entry, and a second one (the entry's rank
    /// in its bucket, or the entry binned) where [`ScatterMode::doubles_digits`].
    pub fn digits_bytes(&self) -> u64 {
        self.entries_bytes()
            * if self.scatter_mode().doubles_digits() {
                2
            } else {
                1
            }
    }

    /// Bytes of the bases one pass binds (expanded: a base and its image a point).
    pub fn bases_bytes(&self) -> u64 {
        self.group.base_bytes() * self.row_capacity()
    }

    /// Bytes of the scratch point buffer.
    pub fn scratch_bytes(&self) -> u64 {
        self.group.point_bytes() * self.scratch_points()
    }

    /// Points in the scratch buffer: bucket partials, chunk partials, then the
    /// reduction's segment sums and tree nodes ([`reduce_area`]).
    pub fn scratch_points(&self) -> u64 {
        let w = u64::from(self.num_windows);
        w * (u64::from(self.bucket_partials()) + u64::from(self.chunks_per_window))
            + reduce_area(self.num_windows, self.num_buckets, self.reduce_wg).1
    }

    /// Whether every later pass of this plan seeds its bucket heads (`Heads::Seeded`):
    /// its passes, of at most [`Plan::points`], never hold more than
    /// [`Plan::seed_points`] points a bucket.
    pub fn seeds_every_pass(&self) -> bool {
        self.row_capacity() <= u64::from(self.seed_points) * u64::from(self.num_buckets)
    }

    /// Bucket partials a window holds in scratch, P (msm_accumulate.wgsl): the runs
    /// that start a bucket mid-chunk and end past the chunk. A pass that leaves buckets
    /// in pieces has up to one a bucket, P = B. In a pass that seeds its heads, or its
    /// MSM's first, such a run is its chunk's last, so a chunk leaves at most one: where
    /// [`Plan::seeds_every_pass`] and a window has fewer chunks than buckets, they are
    /// stored by chunk, P = C < B (the shaders index by chunk exactly when P < B).
    pub fn bucket_partials(&self) -> u32 {
        if self.seeds_every_pass() {
            self.chunks_per_window.min(self.num_buckets)
        } else {
            self.num_buckets
        }
    }

    /// Bytes of the bucket totals (summed over the passes of one MSM).
    pub fn totals_bytes(&self) -> u64 {
        self.group.point_bytes() * u64::from(self.num_windows) * u64::from(self.num_buckets)
    }

    /// Largest single binding the pass needs.
    pub fn max_binding(&self) -> u64 {
        self.digits_bytes()
            .max(self.scratch_bytes())
            .max(self.totals_bytes())
            .max(self.bases_bytes())
    }

    /// Bytes of the working buffers a job allocates for this plan (digits, sorted
    /// entries, bucket counts and offsets, scratch points, bucket totals); inputs not
    /// included.
    pub fn working_bytes(&self) -> u64 {
        self.digits_bytes()
            + self.entries_bytes()
            + self.counts_bytes()
            + self.offsets_bytes()
            + self.scratch_bytes()
            + self.totals_bytes()
    }

    /// Bytes of one input slot fed in the way `feed` says (one pass's inputs).
    pub fn slot_bytes(&self, feed: Feed) -> u64 {
        let cap = u64::from(self.points);
        match feed {
            Feed::Scalars => self.group.scalar_bytes() * cap + PARAMS_SLOT,
            Feed::Chunks => {
                (self.group.base_bytes() + self.group.scalar_bytes()) * cap
                    + PARAMS_SLOT
                    + FLAG_SLOT
            }
            Feed::Params => PARAMS_SLOT,
        }
    }

    /// Everything a job with `slots` input slots allocates: working buffers, slots,
    /// and where streamed bases are expanded, the expanded bases of one pass.
    pub fn job_bytes(&self, feed: Feed, slots: u64) -> u64 {
        let expanded = match feed {
            Feed::Chunks if self.layout.expanded() => self.bases_bytes(),
            _ => 0,
        };
        self.working_bytes() + slots * self.slot_bytes(feed) + expanded
    }
}

/// How a job's inputs reach the device, pass by pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feed {
    /// Bases resident on the device; each pass's scalars go into a slot (at least one).
    Scalars,
    /// Host bases streamed in chunks: two slots of bases and scalars, so the upload of
    /// one chunk overlaps the compute of the one before.
    Chunks,
    /// Bases and scalars resident on the device; each pass's slot holds only its
    /// parameter block.
    Params,
}

impl Feed {
    /// Input slots a job of this kind needs at the least.
    pub fn min_slots(self) -> u64 {
        match self {
            Feed::Scalars | Feed::Params => 1,
            Feed::Chunks => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_windows_scatter_by_ranks_held_beside_the_digits() {
        // 13 bits: 2^12 buckets, the widest with ranks; wider windows (up to 22 bits,
        // nested bins from 17) go through bins, as would up to 24.
        let plan = |c| Plan::with_windows(1 << 16, c, None, Layout::Glv).unwrap();
        let (ranked, binned) = (plan(13), plan(19));
        assert_eq!(ranked.num_buckets, RANKS_MAX_BUCKETS);
        assert_eq!(ranked.scatter_mode(), ScatterMode::Ranks);
        // 14 bits take ten windows of a GLV half, as 13 do: the plan's windows are 13.
        assert_eq!(plan(14).window_bits, 13);
        for c in 15..=MAX_WINDOW_BITS {
            assert_eq!(plan(c).scatter_mode(), ScatterMode::Bins, "{c}");
        }
        assert_eq!(
            ScatterMode::of(BINS_MAX_BUCKETS, 1 << 16),
            ScatterMode::Bins
        );
        assert_eq!(
            ScatterMode::of(2 * BINS_MAX_BUCKETS, 1 << 16),
            ScatterMode::Cursors
        );
        // Bins hold rows of up to 2^24 entries (2^23 GLV points a pass).
        let rows = |cap| Plan::with_windows(cap, 16, None, Layout::Glv).unwrap();
        assert_eq!(rows(1 << 23).scatter_mode(), ScatterMode::Bins);
        let cursors = rows(1 << 24);
        assert_eq!(cursors.scatter_mode(), ScatterMode::Cursors);
        assert_eq!(ranked.digits_bytes(), 2 * ranked.entries_bytes());
        assert_eq!(binned.digits_bytes(), 2 * binned.entries_bytes());
        assert_eq!(cursors.digits_bytes(), cursors.entries_bytes());
        // The doubled digit buffer counts as a binding and as working memory.
        assert!(ranked.max_binding() >= ranked.digits_bytes());
        let counts = 4 * (u64::from(ranked.num_windows * ranked.num_buckets) + 4);
        let others = ranked.entries_bytes()
            + counts
            + ranked.offsets_bytes()
            + ranked.scratch_bytes()
            + ranked.totals_bytes();
        assert_eq!(ranked.working_bytes(), ranked.digits_bytes() + others);
    }

    #[test]
    fn windows_cover_the_digits_bits_a_bit_apart_at_most() {
        use crate::curve::GroupId;
        // (group, layout, c asked, windows of c bits, windows in all); the rest c - 1.
        for (group, layout, c, full, windows) in [
            // GLV halves (128 bits): 11 bits are 8 of 11 and 4 of 10, not 11 of 11 and
            // a top window of 7; 16 bits tile them; 19 bits are 2 of 19 and 5 of 18.
            (GroupId::Bn254G1, Layout::Glv, 11, 8, 12),
            (GroupId::Bn254G1, Layout::Glv, 16, 8, 8),
            (GroupId::Bls12381G2, Layout::Glv, 19, 2, 7),
            // 20 bits: seven windows of 19 and 18 already hold 128 (c becomes 19).
            (GroupId::Bn254G1, Layout::Glv, 20, 2, 7),
            // Whole BN254 (255 bits) and BLS12-381 (256) scalars.
            (GroupId::Bn254G1, Layout::Points, 16, 15, 16),
            (GroupId::Bls12381G1, Layout::Points, 16, 16, 16),
            (GroupId::Bn254G1, Layout::Points, 8, 31, 32),
        ] {
            let p = Plan::shaped_for(group, 1 << 16, c, None, layout, Threads::default()).unwrap();
            assert_eq!(
                (p.full_windows, p.num_windows),
                (full, windows),
                "{layout:?} c = {c}"
            );
            assert_eq!(p.window_bits, c.min(19), "{layout:?} c = {c}");
            let bits: u32 = (0..windows).map(|w| p.window_width(w)).sum();
            assert!(
                bits >= layout.digit_bits(group),
                "{layout:?} c = {c}: {bits} bits"
            );
            assert!(bits - p.window_width(windows - 1) < layout.digit_bits(group));
        }
        // A range of windows (the split by windows) keeps every window c bits wide.
        let part = Plan::with_windows(1 << 16, 11, Some(&(2..5)), Layout::Glv).unwrap();
        assert_eq!(part.full_windows, 12);
        assert!((0..12).all(|w| part.window_width(w) == 11));
    }

    #[test]
    fn glv_plans_halve_the_windows_and_double_the_rows() {
        let whole = Plan::new(1 << 20, 16).unwrap();
        let glv = Plan::with_windows(1 << 20, 16, None, Layout::Glv).unwrap();
        assert_eq!((whole.num_windows, glv.num_windows), (16, 8));
        assert_eq!(glv.row_capacity(), 2 << 20);
        assert_eq!(glv.entries_bytes(), whole.entries_bytes());
        assert_eq!(glv.bases_bytes(), 2 * whole.bases_bytes());
        // A streamed GLV job also holds one pass of expanded bases; a resident one not.
        let (f, r) = (Feed::Chunks, Feed::Scalars);
        let base = |feed, slots| glv.working_bytes() + slots * glv.slot_bytes(feed);
        assert_eq!(glv.job_bytes(f, 2), base(f, 2) + glv.bases_bytes());
        assert_eq!(glv.job_bytes(r, 1), base(r, 1));
        // A range of GLV windows (a cluster's split by windows): the rows stay doubled.
        let half = Plan::with_windows(1 << 20, 16, Some(&(4..8)), Layout::Glv).unwrap();
        assert_eq!((half.first_window, half.num_windows), (4, 4));
        assert_eq!(half.row_capacity(), 2 << 20);
        assert!(Plan::with_windows(1 << 20, 16, Some(&(4..9)), Layout::Glv).is_err());
        // Params feed (resident scalars): a slot is its parameter block.
        assert_eq!(glv.job_bytes(Feed::Params, 3), base(Feed::Params, 3));
        assert_eq!(glv.slot_bytes(Feed::Params), PARAMS_SLOT);
        let pairs = Plan::with_windows(1 << 20, 16, Some(&(0..4)), Layout::Pairs).unwrap();
        assert_eq!((pairs.num_windows, pairs.row_capacity()), (4, 2 << 20));
        // Passes of 2^21 GLV points aim for half the threads; 2^22 and whole scalars not.
        let t = TARGET_THREADS.trailing_zeros();
        assert_eq!(accumulate_threads_log2(Layout::Glv, 1 << 21), t - 1);
        assert_eq!(accumulate_threads_log2(Layout::Glv, 1 << 22), t);
        assert_eq!(accumulate_threads_log2(Layout::Points, 1 << 20), t);
        assert_eq!(
            window_bits_in(GroupId::Bn254G1, Layout::Glv, 1 << 24, 1 << 22),
            16
        );
        assert_eq!(
            window_bits_in(GroupId::Bn254G1, Layout::Points, 1 << 24, 1 << 22),
            WIDE_WINDOW_BITS
        );
    }
}
