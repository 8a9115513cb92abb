//! Choosing the plan of an MSM's passes: the largest power-of-two pass shape that fits
//! the device's limits, the chunk size the caller set, and the memory budget, with
//! buffers for as many points of the next shape up as the budget holds.

use super::{
    glv_window_bits, widest_glv_window_bits, window_bits_in, Feed, Layout, Plan, Threads,
    MAX_PASS_LOG2,
};
use crate::config::MsmConfig;
use crate::curve::GroupId;
use crate::error::{Error, Result};

/// What a plan must respect on a device, and the thread counts its passes aim for.
#[derive(Clone, Copy, Debug)]
pub struct DeviceLimits {
    /// Largest storage binding, bytes.
    pub max_binding: u64,
    /// Largest buffer, bytes.
    pub max_buffer: u64,
    /// Most workgroups per dispatch dimension.
    pub max_workgroups: u32,
    /// Threads a pass aims for.
    pub threads: Threads,
    /// Bytes a call may allocate when its config sets no memory budget
    /// ([`Tuning::memory_budget`](super::tuning::Tuning::memory_budget)); `None`: no
    /// bound but the limits above.
    pub default_budget: Option<u64>,
}

impl DeviceLimits {
    /// The memory budget of a job under `cfg` that reads `resident` bytes already on
    /// the device: `cfg.memory_budget`, else the device's default budget on top of
    /// `resident` (the default bounds what the call allocates), else unbounded.
    pub fn budget(&self, cfg: &MsmConfig, resident: u64) -> u64 {
        match (cfg.memory_budget, self.default_budget) {
            (Some(b), _) => b,
            (None, Some(b)) => b.saturating_add(resident),
            (None, None) => u64::MAX,
        }
    }
}

/// Chooses the pass plan for an MSM of `n` points in `layout`: the largest
/// power-of-two pass that fits the device's bindings and buffers, the configured chunk
/// size, and the memory budget; where the budget alone stops it short of the next
/// power of two, that next shape with buffers for the most points the budget holds
/// (every pass has fixed costs, its collect step and the gaps between its stages, so
/// fewer, larger passes are faster). The budget counts `resident` bytes the job reads
/// but did not allocate (bases already on the device), the working buffers, and the
/// smallest number of input slots `feed` needs.
///
/// # Errors
/// [`Error::InvalidConfig`] for bad window bits; [`Error::OutOfMemory`] when even a pass
/// of 64 points exceeds the budget; [`Error::LimitExceeded`] when even its buffers exceed
/// the device's binding limit (windows too wide for the device).
pub fn choose(
    n: usize,
    cfg: &MsmConfig,
    limits: &DeviceLimits,
    feed: Feed,
    resident: u64,
    layout: Layout,
) -> Result<Plan> {
    choose_for(GroupId::Bn254G1, n, cfg, limits, feed, resident, layout)
}

/// [`choose`] for an MSM over `group` (its base, point and scalar sizes).
///
/// # Errors
/// As [`choose`].
pub fn choose_for(
    group: GroupId,
    n: usize,
    cfg: &MsmConfig,
    limits: &DeviceLimits,
    feed: Feed,
    resident: u64,
    layout: Layout,
) -> Result<Plan> {
    let mut top_log2 =
        (usize::BITS - n.max(64).saturating_sub(1).leading_zeros()).min(MAX_PASS_LOG2);
    if let Some(cs) = cfg.chunk_size {
        let cs_log2 = usize::BITS - 1 - cs.max(64).leading_zeros();
        top_log2 = top_log2.min(cs_log2);
    }
    if cfg.windows.is_some() && cfg.window_bits.is_none() {
        return Err(Error::InvalidConfig(
            "a range of windows needs window_bits".into(),
        ));
    }
    let budget = limits.budget(cfg, resident);
    let slots = feed.min_slots();
    let needed = |plan: &Plan| resident.saturating_add(plan.job_bytes(feed, slots));
    // The device's limits, apart from the budget.
    let within_limits = |plan: &Plan| {
        // Inputs of all slots share one buffer per kind (bases, scalars).
        let slot_inputs = match feed {
            Feed::Scalars => group.scalar_bytes(),
            Feed::Chunks => group.base_bytes(),
            Feed::Params => 0,
        } * u64::from(plan.points)
            * slots;
        plan.max_binding() <= limits.max_binding.min(limits.max_buffer)
            && slot_inputs <= limits.max_buffer
            && u64::from(plan.num_windows) * u64::from(plan.chunks_per_window)
                <= 64 * u64::from(limits.max_workgroups) * u64::from(limits.max_workgroups)
    };
    let fits = |plan: &Plan| within_limits(plan) && needed(plan) <= budget;
    // The shape of passes of 2^cap_log2 points, with windows of `c` bits where given,
    // else the config's or the rule's: the widest windows where their buckets fit the
    // device and the budget, else the wider or the default ones.
    let shape_with = |cap_log2: u32, c: Option<u32>| -> Result<Plan> {
        let cap = 1u32 << cap_log2;
        let shaped =
            |c| Plan::shaped_for(group, cap, c, cfg.windows.as_ref(), layout, limits.threads);
        if let Some(c) = c.or(cfg.window_bits) {
            return shaped(c);
        }
        if let Some(c) = widest_glv_window_bits(group, layout, n, cap as usize) {
            let plan = shaped(c)?;
            if fits(&plan) {
                return Ok(plan);
            }
        }
        // One-shot MSMs (host bases, streamed in passes) keep the rule's width.
        let most = match feed {
            Feed::Chunks => u32::MAX,
            Feed::Scalars | Feed::Params => group.max_default_window_bits(n, layout == Layout::Glv),
        };
        shaped(
            glv_window_bits(group, layout, n, cap as usize)
                .unwrap_or_else(|| window_bits_in(group, layout, n, cap as usize).min(most)),
        )
    };
    let shape = |cap_log2: u32| shape_with(cap_log2, None);
    let mut cap_log2 = top_log2;
    loop {
        let plan = shape(cap_log2)?;
        if fits(&plan) {
            // Where the budget alone stopped the doubling, the next shape up may still
            // hold more points than this one with buffers cut to what the budget
            // leaves: with the rule's windows for that shape, else (where the rule's
            // wider windows leave no room for more points) with this plan's, climbing
            // while whole shapes of them fit. A pass of more points with the same
            // windows costs fewer passes' fixed costs for the same additions.
            if cap_log2 < top_log2 {
                let fill = |log2: u32, c: Option<u32>, fewer: u32| {
                    let up = shape_with(log2, c).ok().filter(|up| within_limits(up))?;
                    partial(up, fewer, &fits)
                };
                if let Some(more) = fill(cap_log2 + 1, None, plan.points) {
                    return Ok(more);
                }
                let mut best = plan;
                for log2 in cap_log2 + 1..=top_log2 {
                    match fill(log2, Some(best.window_bits), best.points) {
                        Some(more) => {
                            let whole = more.points == more.capacity;
                            best = more;
                            if !whole {
                                break;
                            }
                        }
                        None => break,
                    }
                }
                return Ok(best);
            }
            return Ok(plan);
        }
        if cap_log2 <= 6 {
            // A binding beyond the device's limit even at the smallest pass (windows so
            // wide that their buckets alone exceed it) is that limit, not the budget.
            let binding = limits.max_binding.min(limits.max_buffer);
            if plan.max_binding() > binding {
                return Err(Error::LimitExceeded {
                    what: "bytes of one buffer binding (narrower windows need fewer)",
                    requested: plan.max_binding(),
                    max: binding,
                });
            }
            return Err(Error::OutOfMemory {
                requested: needed(&plan),
                available: budget,
            });
        }
        cap_log2 -= 1;
    }
}

/// Parts of its capacity in which a shape's buffers are cut to a budget ([`partial`];
/// docs/benchmark-log.md v56 compares 64ths).
const FILL_PARTS: u32 = 16;

/// `shape` with buffers for the most points that `fits` takes, in [`FILL_PARTS`] parts
/// of its capacity (all of them where it fits whole), when that is more than `fewer`
/// (the points of the shape below it).
fn partial(shape: Plan, fewer: u32, fits: &impl Fn(&Plan) -> bool) -> Option<Plan> {
    let step = shape.capacity / FILL_PARTS;
    if step < 64 {
        return None;
    }
    (1..=FILL_PARTS)
        .rev()
        .map(|k| shape.with_points(k * step))
        .take_while(|p| p.points > fewer)
        .find(|p| fits(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msm::plan::{default_window_bits, BASE_BYTES};

    const BIG: DeviceLimits = DeviceLimits {
        max_binding: 1 << 31,
        max_buffer: 1 << 40,
        max_workgroups: 65535,
        threads: Threads {
            accumulate_log2: None,
            workgroup_storage: u32::MAX,
            seed_points: crate::msm::plan::tuning::SEED_POINTS_PER_BUCKET,
        },
        default_budget: None,
    };

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
        // Windows whose buckets alone exceed a binding: that limit, not the budget.
        let wide = MsmConfig {
            window_bits: Some(20),
            ..Default::default()
        };
        let r = choose(1 << 10, &wide, &small, s, 0, Layout::Points);
        assert!(
            matches!(r, Err(Error::LimitExceeded { max, .. }) if max == 1 << 27),
            "{r:?}"
        );
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
    fn the_widest_windows_only_where_their_buckets_fit() {
        use crate::msm::plan::{WIDEST_GLV_BITS, WIDE_GLV_BITS};
        let (g, n, glv) = (GroupId::Bn254G1, 1 << 24, Layout::Glv);
        let cfg = MsmConfig::default();
        for feed in [Feed::Chunks, Feed::Scalars, Feed::Params] {
            let p = choose_for(g, n, &cfg, &BIG, feed, 0, glv).unwrap();
            assert_eq!(p.window_bits, WIDEST_GLV_BITS, "{feed:?}");
            assert!(p.max_binding() <= BIG.max_binding);
        }
        // A 1 GiB binding does not hold their buckets: the wider rule's windows.
        let gib = DeviceLimits {
            max_binding: 1 << 30,
            ..BIG
        };
        let p = choose_for(g, n, &cfg, &gib, Feed::Scalars, 0, glv).unwrap();
        assert_eq!(p.window_bits, WIDE_GLV_BITS);
        assert!(p.max_binding() <= 1 << 30);
        // Nor does a 2 GiB budget with the bases resident.
        let budget = MsmConfig {
            memory_budget: Some(2 << 30),
            ..Default::default()
        };
        let p = choose_for(g, n, &budget, &BIG, Feed::Scalars, 64 << 24, glv).unwrap();
        assert_eq!(p.window_bits, WIDE_GLV_BITS);
        // Asked for, they are that limit's error where they do not fit.
        let asked = MsmConfig {
            window_bits: Some(WIDEST_GLV_BITS),
            ..Default::default()
        };
        let r = choose_for(g, 1 << 12, &asked, &gib, Feed::Scalars, 0, glv);
        assert!(matches!(r, Err(Error::LimitExceeded { .. })), "{r:?}");
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
        // The largest shape that fits (here a whole one), or the most points of it.
        let more = p.with_points(p.points + p.capacity / FILL_PARTS);
        assert!(
            more.points == p.points || more.job_bytes(Feed::Chunks, 2) > 1 << 30,
            "most points of that shape"
        );
        // The shape up holds no more (a part of it more than this plan's points).
        let up = Plan::shaped(
            2 * p.capacity,
            p.window_bits,
            None,
            Layout::Points,
            BIG.threads,
        );
        let up = up
            .unwrap()
            .with_points(p.points + 2 * p.capacity / FILL_PARTS);
        assert!(
            up.job_bytes(Feed::Chunks, 2) > 1 << 30,
            "no larger shape fits"
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

    #[test]
    fn twelve_bit_windows_in_2048_point_passes_keep_one_bucket_partial_a_chunk() {
        // The plan of tests/gpu.rs's "seeded passes, one bucket partial a chunk" case:
        // passes of at most 2048 points in 12-bit GLV windows seed every later pass and
        // keep their bucket partials by chunk (fewer chunks than buckets).
        let cfg = MsmConfig {
            window_bits: Some(12),
            chunk_size: Some(2048),
            ..Default::default()
        };
        let p = choose(6000, &cfg, &BIG, Feed::Chunks, 0, Layout::Glv).unwrap();
        assert_eq!((p.capacity, p.window_bits), (2048, 12));
        assert!(p.seeds_every_pass());
        assert_eq!(p.bucket_partials(), p.chunks_per_window);
        assert!(p.bucket_partials() < p.num_buckets);
    }

    #[test]
    fn a_default_budget_bounds_what_a_call_allocates() {
        let cfg = MsmConfig::default();
        let cpu = DeviceLimits {
            default_budget: Some(64 << 20),
            ..BIG
        };
        // 2^24 streamed points under a 64 MiB default: passes shrink to fit it.
        let p = choose(1 << 24, &cfg, &cpu, Feed::Chunks, 0, Layout::Points).unwrap();
        assert!(p.job_bytes(Feed::Chunks, 2) <= 64 << 20);
        assert!(p.capacity < 1 << 22, "{}", p.capacity);
        // Resident bases the caller placed do not count against the default...
        let r = choose(1 << 20, &cfg, &cpu, Feed::Scalars, 1 << 30, Layout::Points).unwrap();
        assert!(r.job_bytes(Feed::Scalars, 1) <= 64 << 20);
        // ...and a budget in the config replaces it.
        let gib = MsmConfig {
            memory_budget: Some(1 << 30),
            ..Default::default()
        };
        assert_eq!(cpu.budget(&gib, 5), 1 << 30);
        assert_eq!(cpu.budget(&cfg, 5), (64 << 20) + 5);
        assert_eq!(BIG.budget(&cfg, 5), u64::MAX);
    }

    #[test]
    fn a_budget_between_two_shapes_fills_the_larger_one() {
        let gib = MsmConfig {
            memory_budget: Some(1 << 30),
            ..Default::default()
        };
        // BN254 G1 streamed with GLV under 1 GiB, in the rule's 19-bit windows (seven):
        // a pass of 2^21 needs 1307 MiB, one of 2^20 819 MiB; the 2^21 shape with
        // buffers for 11/16 of its points fits.
        let p = choose(1 << 26, &gib, &BIG, Feed::Chunks, 0, Layout::Glv).unwrap();
        assert_eq!(
            (p.capacity, p.points, p.window_bits),
            (1 << 21, 11 << 17, 19)
        );
        assert!(p.job_bytes(Feed::Chunks, 2) <= 1 << 30);
        let half = p.with_points(p.capacity / 2);
        assert_eq!(half.window_bits, p.window_bits);
        assert!(half.job_bytes(Feed::Chunks, 2) < p.job_bytes(Feed::Chunks, 2));
        // The shape is the capacity's; only the bytes follow the points.
        assert_eq!(p.scatter_mode(), p.with_points(p.capacity).scatter_mode());
        assert_eq!(
            p.entries_bytes(),
            4 * u64::from(p.num_windows) * 2 * (11 << 17)
        );
        // Without a budget, or with one that holds the whole shape, nothing is cut.
        let p = choose(
            1 << 26,
            &MsmConfig::default(),
            &BIG,
            Feed::Chunks,
            0,
            Layout::Glv,
        )
        .unwrap();
        assert_eq!(p.points, p.capacity);
        // BLS12-381 G1 streamed: the rule gives passes of 2^21 points 19-bit windows,
        // whose buckets leave no more room under 1 GiB than the 2^20 shape has; that
        // shape with the 2^20 plan's 16 bits holds 1.375 * 2^20 (points of 208 bytes, as
        // the Wide64 path's 30-bit limbs).
        let bls = GroupId::Bls12381G1;
        let p = choose_for(bls, 1 << 26, &gib, &BIG, Feed::Chunks, 0, Layout::Glv).unwrap();
        assert_eq!(
            (p.capacity, p.points, p.window_bits),
            (1 << 21, 11 << 17, 16)
        );
        assert!(p.job_bytes(Feed::Chunks, 2) <= 1 << 30);
        // With host scalars over resident bases the rule's 19 bits hold a whole 2^21
        // shape, and the 2^22 one 10/16 of its points.
        let p = choose_for(bls, 1 << 24, &gib, &BIG, Feed::Scalars, 0, Layout::Glv).unwrap();
        assert_eq!(
            (p.capacity, p.points, p.window_bits),
            (1 << 22, 10 << 18, 19)
        );
        // BN254 G2 there: its passes all seed their heads (a chunk leaves one bucket
        // partial), and a whole 2^21 shape of 19-bit windows fits, but no more points
        // of the 2^22 one.
        let g2 = GroupId::Bn254G2;
        let p = choose_for(g2, 1 << 24, &gib, &BIG, Feed::Scalars, 0, Layout::Glv).unwrap();
        assert_eq!(
            (p.capacity, p.points, p.window_bits),
            (1 << 21, 1 << 21, 19)
        );
        assert!(p.job_bytes(Feed::Scalars, Feed::Scalars.min_slots()) <= 1 << 30);
        // Where the device's binding limit stops the doubling (an H200's 2 GiB: digits of
        // a 2^24 pass need exactly 2 GiB), passes stay whole powers of two.
        let h200 = DeviceLimits {
            max_binding: 2047 << 20,
            max_buffer: 4094 << 20,
            ..BIG
        };
        let p = choose(
            1 << 24,
            &MsmConfig::default(),
            &h200,
            Feed::Params,
            0,
            Layout::Glv,
        )
        .unwrap();
        assert_eq!((p.capacity, p.points), (1 << 23, 1 << 23));
        // A chunk size caps the shape before any budget does.
        let chunked = MsmConfig {
            chunk_size: Some(1 << 20),
            ..gib
        };
        let p = choose(1 << 26, &chunked, &BIG, Feed::Chunks, 0, Layout::Glv).unwrap();
        assert_eq!((p.capacity, p.points), (1 << 20, 1 << 20));
    }

    #[test]
    fn g2_default_windows_are_capped_per_group() {
        let cfg = MsmConfig::default();
        let s = Feed::Scalars;
        let width = |g: GroupId, n: usize| {
            choose_for(g, n, &cfg, &BIG, Feed::Params, 0, Layout::Points)
                .unwrap()
                .window_bits
        };
        let width_fed = |g: GroupId, n: usize, feed: Feed| {
            choose_for(g, n, &cfg, &BIG, feed, 0, Layout::Points)
                .unwrap()
                .window_bits
        };
        // The rule's widths at 2^16 are below every cap; at 2^20 the G2 caps apply.
        for g in GroupId::ALL {
            assert_eq!(width(g, 1 << 16), default_window_bits(1 << 16));
        }
        assert_eq!(width(GroupId::Bn254G1, 1 << 20), 16);
        assert_eq!(width(GroupId::Bn254G2, 1 << 20), 13);
        assert_eq!(width(GroupId::Bls12381G2, 1 << 22), 16);
        assert_eq!(width(GroupId::Bn254G2, 1 << 22), 13);
        assert_eq!(width(GroupId::Bn254G2, 1 << 24), 15);
        assert_eq!(width_fed(GroupId::Bn254G2, 1 << 20, s), 13);
        // One-shot MSMs keep the rule's width.
        assert_eq!(width_fed(GroupId::Bn254G2, 1 << 20, Feed::Chunks), 16);
        // An explicit width is taken as asked, above the cap (15 bits: 18 windows of
        // BLS12-381's 256 digit bits, which no narrower width keeps to 18).
        let wide = MsmConfig {
            window_bits: Some(15),
            ..MsmConfig::default()
        };
        let p = choose_for(
            GroupId::Bls12381G2,
            1 << 20,
            &wide,
            &BIG,
            s,
            0,
            Layout::Points,
        );
        assert_eq!(p.unwrap().window_bits, 15);
    }
}
