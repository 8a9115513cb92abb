//! Embedding in provers (issue 7), on every device and both multiply paths, against
//! arkworks: batches of MSMs over resident bases in one job, one-shot MSMs streamed in
//! chunks under a memory budget, and budgets on resident bases. Small sizes, so the
//! whole file runs in seconds on lavapipe once the pipelines are cached.
//!
//! Run with `cargo test --release --test embed`; seeds as in `common/`.

use ark_bn254::{Fq, Fr, G1Affine, G1Projective};
use ark_ec::VariableBaseMSM;
use ark_ff::{Field as _, PrimeField as _, UniformRand, Zero};
use wgpu_msm::msm::plan::{window_bits_in, Feed, Layout, Plan};
use wgpu_msm::testing::{random_bases, random_scalars};
use wgpu_msm::{Error, GroupId, MsmConfig, MulPath};

const G1: GroupId = GroupId::Bn254G1;

mod common;
use common::*;

/// arkworks' MSM of `scalars` over the first `scalars.len()` bases.
fn ark(bases: &[G1Affine], scalars: &[Fr]) -> G1Projective {
    G1Projective::msm(&bases[..scalars.len()], scalars).expect("equal lengths")
}

/// The smallest budget under which a one-shot MSM streams chunks of `cap` points (two
/// chunk slots and the working buffers of a pass of `cap`).
fn stream_budget(cap: u32, n: usize) -> u64 {
    default_plan(cap, n, false).job_bytes(Feed::Chunks, 2)
}

/// The plan a default config runs for an MSM of `n` points in passes of `cap`, streamed
/// or over resident bases uploaded by default: in the layout the library picks (GLV
/// halves over expanded bases).
fn default_plan(cap: u32, n: usize, resident: bool) -> Plan {
    let cfg = MsmConfig::default();
    let layout = if resident {
        Layout::resident(G1, Layout::glv_wanted(G1, &cfg), &cfg)
    } else {
        Layout::streamed(G1, &cfg)
    };
    Plan::with_windows(
        cap,
        window_bits_in(G1, layout, n, cap as usize),
        None,
        layout,
    )
    .unwrap()
}

/// Held around a profiled MSM and the read of its profile: tests run in parallel on the
/// same devices, and a device keeps only its last profile.
static PROFILED: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Off the curve: y bumped by one.
fn bump(p: G1Affine) -> G1Affine {
    G1Affine::new_unchecked(p.x, p.y + Fq::ONE)
}

// ---------------------------------------------------------------------------------------
// Batches over resident bases
// ---------------------------------------------------------------------------------------

fn batch(ctx: &mut Ctx) {
    let cfg = ctx.cfg();
    let n = 1024;
    let bases = random_bases(n, n, ctx.next_seed());
    let srs = ctx.dev.upload_bases(&bases).expect("upload");
    let check = |ctx: &Ctx, label: &str, sets: &[Vec<Fr>], cfg: &MsmConfig| {
        let refs: Vec<&[Fr]> = sets.iter().map(Vec::as_slice).collect();
        let got = ctx
            .dev
            .msm_batch(&srs, &refs, cfg)
            .unwrap_or_else(|e| panic!("{} {label}: {e}", ctx.tag()));
        assert_eq!(got.len(), sets.len(), "{} {label}", ctx.tag());
        for (k, s) in sets.iter().enumerate() {
            assert!(
                got[k] == ark(&bases, s),
                "{} {label}: set {k} of {} (length {})",
                ctx.tag(),
                sets.len(),
                s.len()
            );
        }
    };

    let one = vec![random_scalars(n, ctx.next_seed())];
    check(ctx, "batch of 1", &one, &cfg);
    // Seven sets: random, zero, r - 1, one hot bucket, an empty set, shorter prefixes.
    let s = Fr::rand(&mut ctx.rng);
    let seven = vec![
        random_scalars(n, ctx.next_seed()),
        vec![Fr::zero(); n],
        vec![-Fr::ONE; n],
        vec![s; n],
        Vec::new(),
        random_scalars(300, ctx.next_seed()),
        random_scalars(n - 1, ctx.next_seed()),
    ];
    check(ctx, "batch of 7", &seven, &cfg);
    let many: Vec<Vec<Fr>> = (0..64)
        .map(|k| random_scalars(256 + 4 * k, ctx.next_seed()))
        .collect();
    check(ctx, "batch of 64 (2^8 and up)", &many, &cfg);

    // Several passes per set (chunk_size), and a budget that holds only three scalar
    // slots beside the bases and working buffers: several submissions, one readback.
    let chunked = MsmConfig {
        chunk_size: Some(256),
        ..cfg.clone()
    };
    check(ctx, "batch of 7, passes of 256", &seven, &chunked);
    let plan = default_plan(256, n, true);
    let tight = MsmConfig {
        memory_budget: Some(
            srs.device_bytes() + plan.working_bytes() + 3 * plan.slot_bytes(Feed::Scalars),
        ),
        ..chunked.clone()
    };
    check(
        ctx,
        "batch of 7, three slots per submission",
        &seven,
        &tight,
    );

    // The async twin, and a batch of nothing.
    let refs: Vec<&[Fr]> = seven.iter().map(Vec::as_slice).collect();
    let got = pollster::block_on(ctx.dev.msm_batch_async(&srs, &refs, &cfg)).unwrap();
    assert!(got[0] == ark(&bases, &seven[0]), "{} async", ctx.tag());
    assert!(ctx.dev.msm_batch(&srs, &[], &cfg).unwrap().is_empty());
    // A set longer than the bases.
    let long = random_scalars(n + 1, ctx.next_seed());
    let r = ctx.dev.msm_batch(&srs, &[&one[0], &long], &cfg);
    assert!(
        matches!(r, Err(Error::LengthMismatch { bases, scalars }) if bases == n && scalars == n + 1),
        "{} long set: {r:?}",
        ctx.tag()
    );
}

#[test]
fn batch_wide64() {
    for_each_device("batch_wide64", MulPath::Wide64, batch);
}

#[test]
fn batch_portable32() {
    for_each_device("batch_portable32", MulPath::Portable32, batch);
}

// ---------------------------------------------------------------------------------------
// One-shot MSMs streamed under a budget
// ---------------------------------------------------------------------------------------

fn streamed(ctx: &mut Ctx) {
    let n = 4000;
    let cap = 1024;
    let cfg = MsmConfig {
        memory_budget: Some(stream_budget(cap, n)),
        ..ctx.cfg()
    };
    let profiled = MsmConfig {
        profile: true,
        ..cfg.clone()
    };
    let bases = random_bases(n, n, ctx.next_seed());
    let scalars = random_scalars(n, ctx.next_seed());
    let msm = |ctx: &Ctx, label: &str, b: &[G1Affine], s: &[Fr], cfg: &MsmConfig| {
        let got = ctx
            .dev
            .msm(b, s, cfg)
            .unwrap_or_else(|e| panic!("{} {label} (n = {}): {e}", ctx.tag(), b.len()));
        assert!(got == ark(b, s), "{} {label} (n = {})", ctx.tag(), b.len());
    };
    let guard = PROFILED.lock().unwrap_or_else(|e| e.into_inner());
    msm(ctx, "random, 4 chunks", &bases, &scalars, &profiled);
    if ctx.dev.info().timestamp_query {
        let p = ctx.dev.last_profile().expect("profiled");
        assert_eq!(p.passes, 4, "{} chunks of {cap}", ctx.tag());
    }
    drop(guard);

    // Adversarial inputs across chunk boundaries.
    let mut inf = bases.clone();
    for i in (0..n).step_by(3) {
        inf[i] = G1Affine::identity();
    }
    msm(ctx, "every third base at infinity", &inf, &scalars, &cfg);
    let all_inf = vec![G1Affine::identity(); n];
    msm(ctx, "all bases at infinity", &all_inf, &scalars, &cfg);
    let mut zeros = scalars.clone();
    for z in zeros.iter_mut().skip(1000).take(2100) {
        *z = Fr::zero();
    }
    msm(ctx, "zero scalars over whole chunks", &bases, &zeros, &cfg);
    msm(ctx, "all scalars zero", &bases, &vec![Fr::zero(); n], &cfg);
    let s = Fr::rand(&mut ctx.rng);
    msm(ctx, "all scalars equal", &bases, &vec![s; n], &cfg);
    // P in one chunk, -P in the next, equal scalars: the sum is zero.
    let pm: Vec<G1Affine> = (0..2 * cap as usize)
        .map(|i| {
            let p = bases[i % cap as usize];
            if i < cap as usize {
                p
            } else {
                -p
            }
        })
        .collect();
    let eq: Vec<Fr> = (0..pm.len()).map(|i| scalars[i % cap as usize]).collect();
    let got = ctx.dev.msm(&pm, &eq, &cfg).unwrap();
    assert!(got.is_zero(), "{} P and -P in two chunks", ctx.tag());

    // Chunks growing from 1024 to 8192 points (1024, 2048, 4096, 4640, 8192): shorter
    // accumulation chunks in the small passes, and one hot bucket across four passes.
    let n2 = 20000;
    let grow = MsmConfig {
        memory_budget: Some(stream_budget(8192, n2)),
        profile: true,
        ..ctx.cfg()
    };
    let b2 = random_bases(n2, 4000, ctx.next_seed());
    let mut s2 = random_scalars(n2, ctx.next_seed());
    for x in s2.iter_mut().skip(500).take(8500) {
        *x = s;
    }
    let guard = PROFILED.lock().unwrap_or_else(|e| e.into_inner());
    msm(
        ctx,
        "growing chunks, hot bucket across them",
        &b2,
        &s2,
        &grow,
    );
    if ctx.dev.info().timestamp_query {
        let p = ctx.dev.last_profile().expect("profiled");
        assert_eq!(p.passes, 5, "{} growing chunks", ctx.tag());
    }
    drop(guard);

    // Chunks of 64 points (the smallest pass), five of them.
    let tiny = MsmConfig {
        memory_budget: Some(stream_budget(64, 300)),
        ..ctx.cfg()
    };
    msm(ctx, "chunks of 64", &bases[..300], &scalars[..300], &tiny);

    // Bad bases: reported with their index in the whole input, the first one first,
    // whatever their scalar.
    for idx in [3001usize, 1024, 3999] {
        let mut bad = bases.clone();
        bad[idx] = bump(bad[idx]);
        let r = ctx.dev.msm(&bad, &scalars, &cfg);
        assert!(
            matches!(r, Err(Error::PointNotOnCurve { index }) if index == idx),
            "{} off-curve base {idx}: {r:?}",
            ctx.tag()
        );
    }
    let mut bad = bases.clone();
    bad[3500] = bump(bad[3500]);
    bad[2100] = bump(bad[2100]);
    let r = ctx.dev.msm(&bad, &zeros, &cfg);
    assert!(
        matches!(r, Err(Error::PointNotOnCurve { index: 2100 })),
        "{} two off-curve bases, zero scalar: {r:?}",
        ctx.tag()
    );

    // A budget below one chunk of 64.
    let r = ctx.dev.msm(
        &bases,
        &scalars,
        &MsmConfig {
            memory_budget: Some(stream_budget(64, 64) - 1),
            ..ctx.cfg()
        },
    );
    assert!(
        matches!(r, Err(Error::OutOfMemory { requested, available }) if requested > available),
        "{} budget below one chunk: {r:?}",
        ctx.tag()
    );

    // Two streamed MSMs at once from two threads on the same device.
    let (b2, s2) = (&bases[..2500], &scalars[..2500]);
    std::thread::scope(|t| {
        let a = t.spawn(|| ctx.dev.msm(&bases, &scalars, &cfg));
        let b = t.spawn(|| ctx.dev.msm(b2, s2, &cfg));
        let (a, b) = (a.join().unwrap(), b.join().unwrap());
        assert!(
            a.unwrap() == ark(&bases, &scalars),
            "{} thread 1",
            ctx.tag()
        );
        assert!(b.unwrap() == ark(b2, s2), "{} thread 2", ctx.tag());
    });
}

#[test]
fn streamed_wide64() {
    for_each_device("streamed_wide64", MulPath::Wide64, streamed);
}

#[test]
fn streamed_portable32() {
    for_each_device("streamed_portable32", MulPath::Portable32, streamed);
}

// ---------------------------------------------------------------------------------------
// Budgets on resident bases
// ---------------------------------------------------------------------------------------

fn resident_budget(ctx: &mut Ctx) {
    let n = 1000;
    let bases = random_bases(n, n, ctx.next_seed());
    let scalars = random_scalars(n, ctx.next_seed());
    // Bases are stored beside their images (128 bytes a point) where MSMs split their
    // scalars by default.
    let point = if Layout::glv_wanted(G1, &MsmConfig::default()) {
        128
    } else {
        64
    };
    let bytes = point * n as u64;
    let over = MsmConfig {
        memory_budget: Some(bytes - 1),
        ..ctx.cfg()
    };
    let r = ctx.dev.upload_bases_with(&bases, &over);
    assert!(
        matches!(r, Err(Error::OutOfMemory { requested, available })
            if requested == bytes && available == bytes - 1),
        "{} bases over the budget: {:?}",
        ctx.tag(),
        r.map(|b| b.len())
    );
    // Within the budget; msm_with then plans in what the bases leave: passes of 256.
    let plan = default_plan(256, n, true);
    let cfg = MsmConfig {
        memory_budget: Some(bytes + plan.job_bytes(Feed::Scalars, 1)),
        profile: true,
        ..ctx.cfg()
    };
    let srs = ctx
        .dev
        .upload_bases_with(&bases, &cfg)
        .unwrap_or_else(|e| panic!("{} upload within budget: {e}", ctx.tag()));
    let guard = PROFILED.lock().unwrap_or_else(|e| e.into_inner());
    let got = ctx.dev.msm_with(&srs, &scalars, &cfg).unwrap();
    assert!(
        got == ark(&bases, &scalars),
        "{} msm_with in the rest",
        ctx.tag()
    );
    if ctx.dev.info().timestamp_query {
        let p = ctx.dev.last_profile().expect("profiled");
        assert_eq!(p.passes, 4, "{} passes of 256", ctx.tag());
    }
    drop(guard);
    // What one pass holds follows the budget: a pass of 256 points under the budget of
    // one such stream job, OutOfMemory under one byte less than a pass of 64 needs.
    let full = ctx.dev.pass_capacity(&ctx.cfg()).unwrap();
    assert!(
        full.points.is_power_of_two() && full.points >= 1 << 16,
        "{} {full:?}",
        ctx.tag()
    );
    let cap256 = default_plan(256, usize::MAX >> 1, false);
    let stream256 = MsmConfig {
        memory_budget: Some(cap256.job_bytes(Feed::Chunks, 2)),
        ..ctx.cfg()
    };
    let got = ctx.dev.pass_capacity(&stream256).unwrap();
    assert_eq!(
        (got.points, got.bytes),
        (256, cap256.job_bytes(Feed::Chunks, 2)),
        "{}",
        ctx.tag()
    );
    let cap64 = default_plan(64, usize::MAX >> 1, false);
    let tiny = MsmConfig {
        memory_budget: Some(cap64.job_bytes(Feed::Chunks, 2) - 1),
        ..ctx.cfg()
    };
    let r = ctx.dev.pass_capacity(&tiny);
    assert!(
        matches!(r, Err(Error::OutOfMemory { .. })),
        "{} {r:?}",
        ctx.tag()
    );
    // The bases alone fit, but nothing is left for the MSM.
    let only_bases = MsmConfig {
        memory_budget: Some(bytes),
        ..ctx.cfg()
    };
    let r = ctx.dev.msm_with(&srs, &scalars, &only_bases);
    assert!(
        matches!(r, Err(Error::OutOfMemory { .. })),
        "{} no room after the bases: {r:?}",
        ctx.tag()
    );
}

#[test]
fn resident_budget_wide64() {
    for_each_device("resident_budget_wide64", MulPath::Wide64, resident_budget);
}

#[test]
fn resident_budget_portable32() {
    for_each_device(
        "resident_budget_portable32",
        MulPath::Portable32,
        resident_budget,
    );
}

// ---------------------------------------------------------------------------------------
// A range of windows (how a cluster splits one MSM by windows)
// ---------------------------------------------------------------------------------------

fn window_ranges(ctx: &mut Ctx) {
    let n = 1500;
    let bases = random_bases(n, 700, ctx.next_seed());
    let mut scalars = random_scalars(n, ctx.next_seed());
    // Adversarial entries: zero, r - 1 (every digit at its extreme, carries through
    // every window), one hot value.
    scalars[0] = Fr::zero();
    scalars[1] = -Fr::ONE;
    let hot = Fr::rand(&mut ctx.rng);
    for s in scalars.iter_mut().skip(100).take(300) {
        *s = hot;
    }
    let want = ark(&bases, &scalars);
    let srs = ctx.dev.upload_bases(&bases).expect("upload");
    let c = 8;
    let all = wgpu_msm::msm::plan::window_count(c);
    let ranges = [0..1, 1..17, 17..all];
    let with = |r: std::ops::Range<u32>, chunk: Option<usize>| MsmConfig {
        window_bits: Some(c),
        windows: Some(r),
        chunk_size: chunk,
        ..ctx.cfg()
    };
    for chunk in [None, Some(512)] {
        let mut oneshot = G1Projective::zero();
        let mut resident = G1Projective::zero();
        for r in &ranges {
            let cfg = with(r.clone(), chunk);
            let part = ark(
                &bases,
                &wgpu_msm::msm::window_scalars(&scalars, c, r.clone()),
            );
            let got = ctx
                .dev
                .msm(&bases, &scalars, &cfg)
                .unwrap_or_else(|e| panic!("{} windows {r:?}: {e}", ctx.tag()));
            assert!(
                got == part,
                "{} one-shot windows {r:?}, chunks {chunk:?}",
                ctx.tag()
            );
            oneshot += got;
            let got = ctx.dev.msm_with(&srs, &scalars, &cfg).unwrap();
            assert!(
                got == part,
                "{} resident windows {r:?}, chunks {chunk:?}",
                ctx.tag()
            );
            resident += got;
        }
        assert!(
            oneshot == want,
            "{} one-shot parts, chunks {chunk:?}",
            ctx.tag()
        );
        assert!(
            resident == want,
            "{} resident parts, chunks {chunk:?}",
            ctx.tag()
        );
    }
    // Windows of the GLV halves (`glv: Some(true)`): one-shot, over resident expanded
    // bases, and with resident scalars too, each part against its host model, the
    // parts adding up to the MSM.
    let all = Layout::Glv.window_count(c);
    let glv = |r: std::ops::Range<u32>, chunk: Option<usize>| MsmConfig {
        glv: Some(true),
        ..with(r, chunk)
    };
    let srs = ctx.dev.upload_bases_with(&bases, &glv(0..1, None)).unwrap();
    let on_device = ctx.dev.upload_scalars(&scalars).unwrap();
    for chunk in [None, Some(512)] {
        let mut sums = [G1Projective::zero(); 3];
        for r in [0..1, 1..9, 9..all] {
            let cfg = glv(r.clone(), chunk);
            let part = ark(&bases, &glv_window_scalars(&scalars, c, r.clone()));
            let got = [
                ctx.dev.msm(&bases, &scalars, &cfg),
                ctx.dev.msm_with(&srs, &scalars, &cfg),
                ctx.dev.msm_resident(&srs, &on_device, &cfg),
            ];
            for (k, g) in got.into_iter().enumerate() {
                let g = g.unwrap_or_else(|e| panic!("{} GLV windows {r:?}: {e}", ctx.tag()));
                assert!(
                    g == part,
                    "{} GLV windows {r:?}, chunks {chunk:?}, mode {k}",
                    ctx.tag()
                );
                sums[k] += g;
            }
        }
        assert!(
            sums.iter().all(|s| *s == want),
            "{} GLV window parts, chunks {chunk:?}",
            ctx.tag()
        );
    }
    // Bad ranges: none without window_bits, empty, beyond the last window.
    let all = wgpu_msm::msm::plan::window_count(c);
    let bad = [
        MsmConfig {
            windows: Some(0..2),
            ..ctx.cfg()
        },
        with(3..3, None),
        with(0..all + 1, None),
    ];
    for cfg in bad {
        let r = ctx.dev.msm(&bases, &scalars, &cfg);
        assert!(
            matches!(r, Err(Error::InvalidConfig(_))),
            "{} {:?}: {r:?}",
            ctx.tag(),
            cfg.windows
        );
    }
    // Windows wider than a reduction part (`plan::REDUCE_PART_BUCKETS`): at 19 bits a
    // window's 2^18 buckets are reduced in 8 parts, and scattered through nested bins
    // (coarse bins of 1,024 buckets, 8 fine bins each). Two windows at a time (every
    // window's buckets would outgrow a software adapter's bindings), one-shot and all
    // resident; with every scalar equal too, (1 + lambda) k for a 64-bit k, whose GLV
    // halves are both k: a bucket of each low window takes all 3,000 entries (two of
    // `scatter_mid`'s tiles reserve places in its fine bin; the random scalars' sparse
    // tiles span more fine bins than a tile keys, and their last entries reserve one
    // place each).
    let wide = 19;
    let all = Layout::Glv.window_count(wide);
    let lambda = <ark_bn254::g1::Config as ark_ec::scalar_mul::glv::GLVConfig>::LAMBDA;
    let k = Fr::from(u64::rand(&mut ctx.rng));
    let (n1, k1, n2, k2) =
        wgpu_msm::shader::glv::split(&(k * (Fr::ONE + lambda)).into_bigint().into());
    assert!(
        n1 == n2 && k1 == k2,
        "both GLV halves of (1 + lambda) k are k"
    );
    let same = vec![k * (Fr::ONE + lambda); n];
    let on_device_same = ctx.dev.upload_scalars(&same).unwrap();
    for (label, s, on_device) in [
        ("random", &scalars, &on_device),
        ("all scalars equal", &same, &on_device_same),
    ] {
        for r in [0..2, all - 2..all] {
            let cfg = MsmConfig {
                window_bits: Some(wide),
                windows: Some(r.clone()),
                glv: Some(true),
                ..ctx.cfg()
            };
            let part = ark(&bases, &glv_window_scalars(s, wide, r.clone()));
            let got = [
                ctx.dev.msm(&bases, s, &cfg),
                ctx.dev.msm_resident(&srs, on_device, &cfg),
            ];
            for (k, g) in got.into_iter().enumerate() {
                let g = g.unwrap_or_else(|e| {
                    panic!("{} {wide}-bit windows {r:?}, {label}: {e}", ctx.tag())
                });
                assert!(
                    g == part,
                    "{} {wide}-bit GLV windows {r:?}, {label}, mode {k}",
                    ctx.tag()
                );
            }
        }
    }
}

/// The scalars whose plain MSM is the device's MSM restricted to `windows` of the GLV
/// halves: k = k1 + lambda k2 split as the device splits it, each half's part of those
/// windows (`window_scalars`, signed as the half), recombined with lambda.
fn glv_window_scalars(scalars: &[Fr], c: u32, windows: std::ops::Range<u32>) -> Vec<Fr> {
    use ark_ec::scalar_mul::glv::GLVConfig;
    let lambda = <ark_bn254::g1::Config as GLVConfig>::LAMBDA;
    let part = |neg: bool, v: num_bigint::BigUint| {
        let w = wgpu_msm::msm::window_scalars(&[Fr::from(v)], c, windows.clone())[0];
        if neg {
            -w
        } else {
            w
        }
    };
    scalars
        .iter()
        .map(|k| {
            let (n1, k1, n2, k2) = wgpu_msm::shader::glv::split(&k.into_bigint().into());
            part(n1, k1) + lambda * part(n2, k2)
        })
        .collect()
}

#[test]
fn window_ranges_wide64() {
    for_each_device("window_ranges_wide64", MulPath::Wide64, window_ranges);
}

#[test]
fn window_ranges_portable32() {
    for_each_device(
        "window_ranges_portable32",
        MulPath::Portable32,
        window_ranges,
    );
}
