//! Sizing an MSM pass: window width, windows, buckets, chunking and buffer sizes, from
//! the number of points and the device's limits. Pure arithmetic, tested on the CPU.

use crate::config::MsmConfig;
use crate::error::{Error, Result};
use std::ops::Range;

/// Bits in a BN254 scalar (r < 2^254).
pub const SCALAR_BITS: u32 = 254;
/// Accumulation threads a pass aims for by default (enough to fill a large GPU; more
/// only adds chunk partials and run flushes); `WGPU_MSM_ACCUMULATE_THREADS_LOG2`
/// overrides it (see `tuning.rs`).
pub const TARGET_THREADS: u64 = 1 << 18;
/// Bounds of the entries one accumulation thread sums.
pub const CHUNK_LEN_RANGE: (u32, u32) = (16, 512);
/// Most reduction threads per window by default (`WGPU_MSM_REDUCE_SEGS_LOG2` overrides
/// it, see `tuning.rs`).
pub const MAX_SEGS: u32 = 1 << super::tuning::DEFAULT_REDUCE_SEGS_LOG2;
pub use crate::shader::stages::{REDUCE_WG, SCAN_PER, SCAN_WG};
/// Largest pass we plan, in points.
pub const MAX_PASS_LOG2: u32 = 24;
/// Bytes of one affine base on the device.
pub const BASE_BYTES: u64 = 64;
/// Bytes of one scalar on the device.
pub const SCALAR_BYTES: u64 = 32;
/// Bytes of one XYZZ point on the device.
pub const POINT_BYTES: u64 = 128;
/// Bytes of one pass's parameter slot (the uniform-offset alignment).
pub const PARAMS_SLOT: u64 = 256;
/// Bytes of one chunk's on-curve flag slot (the storage-offset alignment).
pub const FLAG_SLOT: u64 = 256;

/// What the entries of a pass's window rows are (`LAYOUT_*` in msm_decompose.wgsl).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Layout {
    /// One entry a point: its base as uploaded, its whole scalar.
    Points = 0,
    /// Two entries a point, over bases expanded with their endomorphism images
    /// (`expand_bases.wgsl`): the halves k1, k2 of its scalar, k = k1 + lambda k2
    /// (`shader::glv`). Windows cover 128 bits instead of 255: half as many, each
    /// with twice the entries.
    Glv = 1,
    /// Two entries a point over expanded bases, with whole scalars (the second entry
    /// has no digit): a range of windows over bases stored expanded.
    Pairs = 2,
}

impl Layout {
    /// Entries a point has in each window row.
    pub fn entries_per_point(self) -> u32 {
        match self {
            Layout::Points => 1,
            Layout::Glv | Layout::Pairs => 2,
        }
    }

    /// Whether the bases are read expanded (a base and its image, 128 bytes a point).
    pub fn expanded(self) -> bool {
        self != Layout::Points
    }

    /// Whether `cfg` asks for GLV: `cfg.glv`, else the default (`WGPU_MSM_GLV`). Bases
    /// uploaded under `cfg` are stored expanded when it does.
    pub fn glv_asked(cfg: &MsmConfig) -> bool {
        cfg.glv.unwrap_or_else(|| super::tuning::glv_default() == 2)
    }

    /// Whether an MSM under `cfg` splits its scalars (GLV): as `cfg.glv` says, else by
    /// default ([`Layout::glv_asked`]) except under a range of windows, which then
    /// counts windows of the whole scalar.
    pub fn glv_wanted(cfg: &MsmConfig) -> bool {
        match cfg.glv {
            Some(g) => g,
            None => cfg.windows.is_none() && Layout::glv_asked(cfg),
        }
    }

    /// The layout of a one-shot MSM under `cfg` (its bases are expanded on the device
    /// pass by pass when it splits its scalars).
    pub fn streamed(cfg: &MsmConfig) -> Layout {
        if Layout::glv_wanted(cfg) {
            Layout::Glv
        } else {
            Layout::Points
        }
    }

    /// The layout of an MSM under `cfg` over resident bases, `expanded` or not.
    pub fn resident(expanded: bool, cfg: &MsmConfig) -> Layout {
        match (expanded, Layout::glv_wanted(cfg)) {
            (false, _) => Layout::Points,
            (true, true) => Layout::Glv,
            (true, false) => Layout::Pairs,
        }
    }

    /// Windows of `c` bits the scalars (or their halves) need.
    pub fn window_count(self, c: u32) -> u32 {
        match self {
            Layout::Glv => (crate::shader::glv::GLV_BITS + 1).div_ceil(c.max(1)),
            Layout::Points | Layout::Pairs => window_count(c),
        }
    }
}

/// Shape of one pass over at most `capacity` points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    /// Points the buffers hold (a power of two, >= 64).
    pub capacity: u32,
    /// What the window rows' entries are.
    pub layout: Layout,
    /// Window width c.
    pub window_bits: u32,
    /// First window computed (0 unless the MSM asked for a range of windows).
    pub first_window: u32,
    /// Windows computed, W: all ceil(255 / c) of them (signed digits need one bit of
    /// headroom) unless the MSM asked for a range.
    pub num_windows: u32,
    /// Buckets per window B = 2^(c-1).
    pub num_buckets: u32,
    /// Sorted entries one accumulation thread sums, L (a power of two): about
    /// W * entries / TARGET_THREADS (or its tuning knob), within CHUNK_LEN_RANGE.
    pub chunk_len: u32,
    /// Accumulation chunks per window C = entries / L (entries: capacity times the
    /// layout's entries a point).
    pub chunks_per_window: u32,
    /// Reduction threads per window T (a multiple of REDUCE_WG).
    pub segs_per_window: u32,
    /// Reduction workgroups per window G = T / REDUCE_WG.
    pub groups_per_window: u32,
}

/// Windows of `c` bits a scalar has: ceil(255 / c) (signed digits need one bit of
/// headroom above the 254 bits of r).
pub fn window_count(c: u32) -> u32 {
    (SCALAR_BITS + 1).div_ceil(c.max(1))
}

/// Scan tiles of a window of `buckets` buckets, T = ceil(B / (SCAN_WG * SCAN_PER)): the
/// scan runs one workgroup per tile (msm_sort.wgsl computes the same).
pub fn scan_tiles(buckets: u32) -> u32 {
    buckets.div_ceil(SCAN_WG * SCAN_PER)
}

/// The default window width for a pass of `n` points.
///
/// Measured on an H200 (BENCHMARKS.md, v4): at 2^16 the reduction's per-thread depth
/// dominates and c = 8 beats c = 13 (3.2 against 5.9 ms); from 2^20 on, accumulation
/// dominates and c = 16 is best of 15..18.
pub fn default_window_bits(n: usize) -> u32 {
    let lg = usize::BITS - n.max(1).saturating_sub(1).leading_zeros();
    match lg {
        0..=17 => (lg / 2).clamp(4, 8),
        18..=19 => lg - 8,
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
/// Measured on two H200s (BENCHMARKS.md v21, c = 17 against 16 in four calls): one
/// H200 0.5-1.5% faster at every size from 2^21 to 2^25, one-shot and resident (15
/// windows instead of 16: fewer entries to sort and add, at the price of twice the
/// buckets to scan, collect and reduce, which a large MSM amortises); a pair of them
/// (2^21 and more points a device) as fast one-shot, within its spread, and faster
/// resident. At 2^20 points (one pass) both widths take the same time.
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
/// and collect stages to add. Measured on two H200s (BENCHMARKS.md v22): 2^17 threads
/// took one H200 28.77 / 27.48 ms at 2^22 (one-shot / resident) against 29.4 / 27.71
/// with 2^18 (collect 1.25 -> 0.69 ms), and the pair 16.17 / 15.37 against 16.71 /
/// 15.76; at 2^24 (passes of 2^22) 2^18 stayed faster (102.08 / 97.85 against 102.62
/// / 98.49: chunks of 512 slowed the accumulation by 1.9 ms).
pub fn accumulate_threads_log2(layout: Layout, capacity: u32) -> u32 {
    let t = TARGET_THREADS.trailing_zeros();
    if layout == Layout::Glv && capacity <= GLV_FEWER_THREADS_MAX_PASS {
        t - 1
    } else {
        t
    }
}

/// The default window width for an MSM of `n` points in passes of at most `cap`, in
/// `layout`: [`window_bits_for`] for whole scalars; for GLV halves (twice the entries a
/// window, [`Layout::Glv`]) the width [`default_window_bits`] gives the entries of a
/// pass, at most 16 (8 windows of 16 bits hold 128; 17 or 18 bits still take 8 windows,
/// with more buckets).
pub fn window_bits_in(layout: Layout, n: usize, cap: usize) -> u32 {
    match layout {
        Layout::Glv => default_window_bits(n.min(cap).saturating_mul(2)).min(16),
        Layout::Points | Layout::Pairs => window_bits_for(n, cap),
    }
}

/// Windows at and above which a window gets [`MAX_SEGS`] reduction threads; fewer
/// windows share as many threads in all (up to 64 x 64 a window).
pub const REDUCE_FULL_WINDOWS: u32 = 8;

/// Most bucket-reduction threads a window of a pass computing `num_windows` windows
/// gets: [`MAX_SEGS`] (or `WGPU_MSM_REDUCE_SEGS_LOG2`'s), more where fewer than
/// [`REDUCE_FULL_WINDOWS`] windows leave the device idle, up to 64 groups of 64, all
/// `reduce_windows` sums in one workgroup. The reduction is a chain of dependent
/// additions per thread (twice the segment's buckets, then the rounds of the groups), so
/// shorter segments finish sooner while threads are few: a cluster's half of the 8 GLV
/// windows at 2^22 on an H200 reduced in 0.55 ms with 2^12 threads a window against
/// 0.68-0.69 with 2^11 (BENCHMARKS.md v23), where all 8 windows gain little (0.66
/// against 0.69).
pub fn reduce_segs(num_windows: u32) -> u32 {
    let base = super::tuning::reduce_segs_log2().clamp(6, 12) as u32;
    let short = REDUCE_FULL_WINDOWS
        .div_ceil(num_windows.max(1))
        .next_power_of_two()
        .trailing_zeros();
    1 << (base + short).min(12)
}

impl Plan {
    /// A plan for passes of up to `capacity` points with windows of `c` bits.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] when `c` is outside 2..=20.
    pub fn new(capacity: u32, c: u32) -> Result<Plan> {
        Plan::with_windows(capacity, c, None, Layout::Points)
    }

    /// [`Plan::new`] in `layout`, computing only the windows in `windows` (all when
    /// `None`; in [`Layout::Glv`], window w covers the same bits of both halves).
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] when `c` is outside 2..=20 or the range is empty or
    /// beyond the last window.
    pub fn with_windows(
        capacity: u32,
        c: u32,
        windows: Option<&Range<u32>>,
        layout: Layout,
    ) -> Result<Plan> {
        if !(2..=20).contains(&c) {
            return Err(Error::InvalidConfig(format!(
                "window_bits {c} outside 2..=20"
            )));
        }
        let capacity = capacity.max(64).next_power_of_two();
        let all = layout.window_count(c);
        let (first_window, num_windows) = match windows {
            None => (0, all),
            Some(r) if r.start < r.end && r.end <= all => (r.start, r.end - r.start),
            Some(r) => {
                return Err(Error::InvalidConfig(format!(
                    "windows {r:?}: not a non-empty range within 0..{all} (c = {c})"
                )))
            }
        };
        let num_buckets = 1u32 << (c - 1);
        let segs = num_buckets
            .next_power_of_two()
            .clamp(REDUCE_WG, reduce_segs(num_windows));
        let row = capacity * layout.entries_per_point();
        let entries = u64::from(num_windows) * u64::from(row);
        let threads_log2 = match super::tuning::accumulate_threads_log2() {
            0 => accumulate_threads_log2(layout, capacity),
            t => t as u32,
        };
        let chunk_len = (entries >> threads_log2.min(30))
            .next_power_of_two()
            .clamp(u64::from(CHUNK_LEN_RANGE.0), u64::from(CHUNK_LEN_RANGE.1))
            as u32;
        Ok(Plan {
            capacity,
            layout,
            window_bits: c,
            first_window,
            num_windows,
            num_buckets,
            chunk_len,
            chunks_per_window: row.div_ceil(chunk_len),
            segs_per_window: segs,
            groups_per_window: segs / REDUCE_WG,
        })
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

    /// Entries of one window row (points times the layout's entries a point).
    pub fn row_capacity(&self) -> u64 {
        u64::from(self.capacity) * u64::from(self.layout.entries_per_point())
    }

    /// Bytes of the digit and sorted-entry buffers (each).
    pub fn entries_bytes(&self) -> u64 {
        4 * u64::from(self.num_windows) * self.row_capacity()
    }

    /// Bytes of the bases one pass binds (expanded: a base and its image a point).
    pub fn bases_bytes(&self) -> u64 {
        BASE_BYTES * self.row_capacity()
    }

    /// Bytes of the scratch point buffer.
    pub fn scratch_bytes(&self) -> u64 {
        POINT_BYTES * self.scratch_points()
    }

    /// Points in the scratch buffer: bucket partials, chunk partials, group sums (two
    /// a group), reduce-thread shares (two a thread).
    pub fn scratch_points(&self) -> u64 {
        let w = u64::from(self.num_windows);
        w * (u64::from(self.num_buckets)
            + u64::from(self.chunks_per_window)
            + 2 * u64::from(self.groups_per_window)
            + 2 * u64::from(self.segs_per_window))
    }

    /// Bytes of the bucket totals (summed over the passes of one MSM).
    pub fn totals_bytes(&self) -> u64 {
        POINT_BYTES * u64::from(self.num_windows) * u64::from(self.num_buckets)
    }

    /// Largest single binding the pass needs.
    pub fn max_binding(&self) -> u64 {
        self.entries_bytes()
            .max(self.scratch_bytes())
            .max(self.totals_bytes())
            .max(self.bases_bytes())
    }

    /// Bytes of the working buffers a job allocates for this plan (digits, sorted
    /// entries, bucket counts and offsets, scratch points, bucket totals); inputs not
    /// included.
    pub fn working_bytes(&self) -> u64 {
        let w = u64::from(self.num_windows);
        let b = u64::from(self.num_buckets);
        2 * self.entries_bytes()
            + 4 * (w * b + 1)
            + self.offsets_bytes()
            + self.scratch_bytes()
            + self.totals_bytes()
    }

    /// Bytes of one input slot fed in the way `feed` says (one pass's inputs).
    pub fn slot_bytes(&self, feed: Feed) -> u64 {
        let cap = u64::from(self.capacity);
        match feed {
            Feed::Scalars => SCALAR_BYTES * cap + PARAMS_SLOT,
            Feed::Chunks => (BASE_BYTES + SCALAR_BYTES) * cap + PARAMS_SLOT + FLAG_SLOT,
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

/// A large MSM is cut into passes of about n / this many points even when one pass
/// would fit (and the first ones smaller still, see [`pass_sizes`]), so that the upload
/// of each pass's inputs hides behind the compute of the pass before.
pub(crate) fn overlap_passes() -> usize {
    super::tuning::overlap_divisor()
}

/// Smallest pass an overlapped MSM is cut into (each pass adds a reduction).
const OVERLAP_MIN_PASS: usize = 1 << 20;
/// Largest pass an overlapped MSM is cut into: bounds the host's upload buffers (two
/// chunks of 96 bytes a point: 768 MiB) on the largest inputs.
const OVERLAP_MAX_PASS: usize = 1 << 22;

/// `cfg` with passes of about n / [`overlap_passes`] points (2^20 to 2^22) when `n` is
/// at least `min` and the caller chose no chunk size; `None` otherwise.
pub(crate) fn overlapped(n: usize, cfg: &MsmConfig, min: usize) -> Option<MsmConfig> {
    (cfg.chunk_size.is_none() && n >= min).then(|| MsmConfig {
        chunk_size: Some((n / overlap_passes()).clamp(OVERLAP_MIN_PASS, OVERLAP_MAX_PASS)),
        ..cfg.clone()
    })
}

/// Smallest first pass of a streamed MSM (smaller ones cost more in per-pass work than
/// their upload saves).
const MIN_FIRST_PASS: usize = 1 << 10;

/// The sizes of the passes an MSM of `n` points runs in, at most `cap` points each: a
/// first pass of `cap / 2^first_shift` points (at least [`MIN_FIRST_PASS`]), each later
/// one `growth_pct` percent of the one before (at least one point more) up to `cap`,
/// then passes of `cap`; what is left over (less than `cap`) runs first, so no small
/// pass trails at the end. The device starts once a small first pass is uploaded, and
/// each later upload hides behind the passes before it while `growth_pct` is at most
/// the ratio of the host's upload speed to the device's compute speed (in points per
/// second); the bucket totals carry over, so a pass costs little beyond its points. (On
/// an H200, doubling beat 150% and 170% even where the host writes slower than that:
/// each pass more costs more than the waits it saves, BENCHMARKS.md v16; and 250%
/// beat doubling under the kernels of v28.)
pub(crate) fn pass_sizes(n: usize, cap: usize, first_shift: u32, growth_pct: u32) -> Vec<usize> {
    if n <= cap.max(1) {
        return if n == 0 { Vec::new() } else { vec![n] };
    }
    growing_passes(n, cap, first_shift, growth_pct)
}

/// [`pass_sizes`] that also cuts an `n` of at most `cap` into growing passes (the first
/// of `cap / 2^first_shift`), where [`pass_sizes`] would run it whole.
pub(crate) fn growing_passes(
    n: usize,
    cap: usize,
    first_shift: u32,
    growth_pct: u32,
) -> Vec<usize> {
    let cap = cap.max(1);
    if n == 0 {
        return Vec::new();
    }
    let first = (cap >> first_shift.min(usize::BITS - 1))
        .max(MIN_FIRST_PASS)
        .min(cap);
    let mut out = Vec::new();
    let mut left = n;
    let mut size = first;
    while size < cap && left > 0 {
        let s = size.min(left);
        out.push(s);
        left -= s;
        size = (size * growth_pct as usize / 100).max(size + 1);
    }
    out.extend(std::iter::repeat_n(cap, left / cap));
    if !left.is_multiple_of(cap) {
        out.push(left % cap);
    }
    if first < cap {
        // Ascending: the leftover (of the growing passes or after the full ones) runs
        // early, where a small pass is what the growing passes want; none trails.
        out.sort_unstable();
    }
    out
}

/// Limits a plan must respect.
#[derive(Clone, Copy, Debug)]
pub struct DeviceLimits {
    /// Largest storage binding, bytes.
    pub max_binding: u64,
    /// Largest buffer, bytes.
    pub max_buffer: u64,
    /// Most workgroups per dispatch dimension.
    pub max_workgroups: u32,
}

/// Chooses the pass plan for an MSM of `n` points in `layout`: the largest
/// power-of-two pass that fits the device's bindings and buffers, the configured chunk
/// size, and the memory budget. The budget counts `resident` bytes the job reads but did
/// not allocate (bases already on the device), the working buffers, and the smallest
/// number of input slots `feed` needs.
///
/// # Errors
/// [`Error::InvalidConfig`] for bad window bits; [`Error::OutOfMemory`] when even a pass
/// of 64 points exceeds the budget.
pub fn choose(
    n: usize,
    cfg: &MsmConfig,
    limits: &DeviceLimits,
    feed: Feed,
    resident: u64,
    layout: Layout,
) -> Result<Plan> {
    let mut cap_log2 =
        (usize::BITS - n.max(64).saturating_sub(1).leading_zeros()).min(MAX_PASS_LOG2);
    if let Some(cs) = cfg.chunk_size {
        let cs_log2 = usize::BITS - 1 - cs.max(64).leading_zeros();
        cap_log2 = cap_log2.min(cs_log2);
    }
    let budget = cfg.memory_budget.unwrap_or(u64::MAX);
    loop {
        let cap = 1u32 << cap_log2;
        let c = cfg
            .window_bits
            .unwrap_or_else(|| window_bits_in(layout, n, cap as usize));
        if cfg.windows.is_some() && cfg.window_bits.is_none() {
            return Err(Error::InvalidConfig(
                "a range of windows needs window_bits".into(),
            ));
        }
        let plan = Plan::with_windows(cap, c, cfg.windows.as_ref(), layout)?;
        let slots = feed.min_slots();
        let needed = resident.saturating_add(plan.job_bytes(feed, slots));
        // Inputs of all slots share one buffer per kind (bases, scalars).
        let slot_inputs = match feed {
            Feed::Scalars => SCALAR_BYTES,
            Feed::Chunks => BASE_BYTES,
            Feed::Params => 0,
        } * u64::from(cap)
            * slots;
        let fits = plan.max_binding() <= limits.max_binding.min(limits.max_buffer)
            && slot_inputs <= limits.max_buffer
            && needed <= budget
            && u64::from(plan.num_windows) * u64::from(plan.chunks_per_window)
                <= 64 * u64::from(limits.max_workgroups) * u64::from(limits.max_workgroups);
        if fits {
            return Ok(plan);
        }
        if cap_log2 <= 6 {
            return Err(Error::OutOfMemory {
                requested: needed,
                available: budget,
            });
        }
        cap_log2 -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BIG: DeviceLimits = DeviceLimits {
        max_binding: 1 << 31,
        max_buffer: 1 << 40,
        max_workgroups: 65535,
    };

    #[test]
    fn pass_sizes_grow_from_a_small_first_pass() {
        let m = MIN_FIRST_PASS;
        assert_eq!(pass_sizes(0, 8 * m, 3, 200), Vec::<usize>::new());
        assert_eq!(
            pass_sizes(5 * m, 8 * m, 3, 200),
            vec![5 * m],
            "fits: one pass"
        );
        assert_eq!(
            pass_sizes(20 * m, 8 * m, 3, 200),
            vec![m, 2 * m, 4 * m, 5 * m, 8 * m]
        );
        assert_eq!(
            pass_sizes(16 * m, 8 * m, 3, 200),
            vec![m, m, 2 * m, 4 * m, 8 * m]
        );
        assert_eq!(pass_sizes(20 * m, 8 * m, 0, 200), vec![8 * m, 8 * m, 4 * m]);
        // The first pass is never below the minimum, nor above the capacity.
        assert_eq!(pass_sizes(3 * m, 2 * m, 5, 200), vec![m, 2 * m]);
        assert_eq!(
            pass_sizes(10, 4, 1, 200),
            vec![4, 4, 2],
            "below the smallest first pass"
        );
        let mb = 1 << 20;
        assert_eq!(
            pass_sizes(1 << 24, 1 << 22, 3, 200),
            vec![mb / 2, mb / 2, mb, 2 * mb, 4 * mb, 4 * mb, 4 * mb]
        );
        assert_eq!(
            pass_sizes(1 << 23, 1 << 22, 3, 200),
            vec![mb / 2, mb / 2, mb, 2 * mb, 4 * mb]
        );
        for (n, cap, shift) in [(1000, 64, 2), (1 << 24, 1 << 22, 3), (12345, 4096, 9)] {
            let p = pass_sizes(n, cap, shift, 200);
            assert_eq!(p.iter().sum::<usize>(), n);
            assert!(p.iter().all(|&s| s > 0 && s <= cap));
        }
        // Slower growth: more, gentler passes; the sum and bounds hold for any growth.
        assert_eq!(
            pass_sizes(20 * m, 8 * m, 3, 150),
            vec![m, 1536, 2304, 3456, 5184, 6976]
        );
        for growth in [101, 150, 170, 300] {
            for (n, cap, shift) in [(1000, 64, 2), (1 << 24, 1 << 22, 3), (12345, 4096, 9)] {
                let p = pass_sizes(n, cap, shift, growth);
                assert_eq!(p.iter().sum::<usize>(), n, "growth {growth}");
                assert!(p.iter().all(|&s| s > 0 && s <= cap));
                if cap >> shift > MIN_FIRST_PASS {
                    assert!(p.windows(2).all(|w| w[0] <= w[1]), "ascending: {p:?}");
                }
            }
        }
    }

    #[test]
    fn growing_passes_cut_an_msm_that_fits() {
        let mb = 1 << 20;
        // The resident plan at 2^22 and 2^21 (capacity the whole MSM): three passes.
        assert_eq!(
            growing_passes(4 * mb, 4 * mb, 4, 400),
            vec![mb / 4, mb, 4 * mb - mb - mb / 4]
        );
        assert_eq!(
            growing_passes(2 * mb, 2 * mb, 4, 400),
            vec![mb / 8, mb / 2, 2 * mb - mb / 2 - mb / 8]
        );
        // 2^24 in passes of at most 2^23 (the device's limit): the growing ones, then full.
        assert_eq!(
            growing_passes(16 * mb, 8 * mb, 4, 400),
            vec![mb / 2, 2 * mb, 16 * mb - 8 * mb - 2 * mb - mb / 2, 8 * mb]
        );
        // Where the whole MSM is smaller than the first pass: one pass.
        assert_eq!(growing_passes(100, 1 << 20, 4, 400), vec![100]);
        assert_eq!(growing_passes(0, 1 << 20, 4, 400), Vec::<usize>::new());
        for (n, cap) in [(3 * mb + 7, 4 * mb), (5000, 8192), (1 << 24, 1 << 23)] {
            let p = growing_passes(n, cap, 4, 400);
            assert_eq!(p.iter().sum::<usize>(), n);
            assert!(p.iter().all(|&s| s > 0 && s <= cap));
            assert!(p.windows(2).all(|w| w[0] <= w[1]), "ascending: {p:?}");
        }
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
        for c in 2..=20 {
            let p = Plan::new(1024, c).unwrap();
            assert!(p.num_windows * c >= 255, "c={c}");
            assert!((p.num_windows - 1) * c < 255, "c={c}");
        }
        assert!(Plan::new(1024, 1).is_err());
        assert!(Plan::new(1024, 21).is_err());
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
        // A range of GLV windows (a cluster's split by windows): the rows stay doubled,
        // and half the windows get twice the reduction threads each.
        let half = Plan::with_windows(1 << 20, 16, Some(&(4..8)), Layout::Glv).unwrap();
        assert_eq!((half.first_window, half.num_windows), (4, 4));
        assert_eq!(half.row_capacity(), 2 << 20);
        assert_eq!(glv.segs_per_window, MAX_SEGS);
        assert_eq!(half.segs_per_window, 2 * MAX_SEGS);
        assert_eq!(whole.segs_per_window, MAX_SEGS);
        assert_eq!(reduce_segs(1), 4096);
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
        assert_eq!(window_bits_in(Layout::Glv, 1 << 24, 1 << 22), 16);
        assert_eq!(
            window_bits_in(Layout::Points, 1 << 24, 1 << 22),
            WIDE_WINDOW_BITS
        );
    }

    #[test]
    fn passes_are_split_to_fit_limits_and_budget() {
        let cfg = MsmConfig::default();
        let s = Feed::Scalars;
        let p = choose(1 << 20, &cfg, &BIG, s, 0, Layout::Points).unwrap();
        assert_eq!(p.capacity, 1 << 20);
        let small = DeviceLimits {
            max_binding: 1 << 27,
            ..BIG
        };
        let p = choose(1 << 24, &cfg, &small, s, 0, Layout::Points).unwrap();
        assert!(p.max_binding() <= 1 << 27);
        let budget = MsmConfig {
            memory_budget: Some(64 << 20),
            ..Default::default()
        };
        let p = choose(1 << 24, &budget, &BIG, s, 0, Layout::Points).unwrap();
        assert!(p.job_bytes(s, 1) <= 64 << 20);
        let tiny = MsmConfig {
            memory_budget: Some(1000),
            ..Default::default()
        };
        assert!(matches!(
            choose(1 << 10, &tiny, &BIG, s, 0, Layout::Points),
            Err(Error::OutOfMemory { .. })
        ));
        let chunked = MsmConfig {
            chunk_size: Some(5000),
            ..Default::default()
        };
        assert_eq!(
            choose(1 << 20, &chunked, &BIG, s, 0, Layout::Points)
                .unwrap()
                .capacity,
            4096
        );
    }

    #[test]
    fn budget_counts_resident_bases_and_both_chunk_slots() {
        let gib = MsmConfig {
            memory_budget: Some(1 << 30),
            ..Default::default()
        };
        // 2^26 streamed under 1 GiB: two chunk slots plus working buffers fit.
        let p = choose(1 << 26, &gib, &BIG, Feed::Chunks, 0, Layout::Points).unwrap();
        let used = p.job_bytes(Feed::Chunks, 2);
        assert!(used <= 1 << 30, "{used}");
        let twice = Plan::new(2 * p.capacity, p.window_bits).unwrap();
        assert!(
            twice.job_bytes(Feed::Chunks, 2) > 1 << 30,
            "largest that fits"
        );
        // Resident bases count: 2^24 bases (1 GiB) leave nothing under a 1 GiB budget.
        let r = choose(1 << 24, &gib, &BIG, Feed::Scalars, 64 << 24, Layout::Points);
        assert!(
            matches!(r, Err(Error::OutOfMemory { requested, available })
                if requested > 1 << 30 && available == 1 << 30),
            "{r:?}"
        );
        let r = choose(1 << 20, &gib, &BIG, Feed::Scalars, 64 << 20, Layout::Points).unwrap();
        assert!((64u64 << 20) + r.job_bytes(Feed::Scalars, 1) <= 1 << 30);
        // Two chunk slots of bases share one buffer, which must fit the device.
        let one_slot = DeviceLimits {
            max_buffer: 64 << 20,
            max_binding: 64 << 20,
            ..BIG
        };
        let p = choose(
            1 << 20,
            &MsmConfig::default(),
            &one_slot,
            Feed::Chunks,
            0,
            Layout::Points,
        )
        .unwrap();
        assert!(2 * BASE_BYTES * u64::from(p.capacity) <= 64 << 20);
    }
}
