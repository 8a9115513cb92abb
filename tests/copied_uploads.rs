//! One-shot and batched MSMs with every upload copied into device memory before the
//! kernels read it: the path of a device without `MAPPABLE_PRIMARY_BUFFERS`, forced
//! here through the device's tuning (`direct_uploads: DirectUploads::None`). The other
//! test binaries run the default, where such devices (lavapipe among them) read the
//! upload buffers in place.
//!
//! The same tuning also sets `retire_on_poller`: the polling thread retires every
//! submission, which by default happens only on GPUs, so that a software adapter (CI)
//! runs it too; `fold_indirect: false`: every fold step dispatched at full size from
//! the host, the path of devices without indirect dispatches (the others size the
//! steps on the device), with the hot bucket of "all scalars equal" folding in every
//! chunk; and `resident_overlap_log2` and `stream_overlap_log2` of 11: single resident
//! and one-shot MSMs of a few thousand points run in the growing passes that large
//! ones take.
//!
//! Run with `cargo test --release --test copied_uploads`; seeds as in `common/`.

use ark_bn254::{Fq, Fr, G1Affine, G1Projective};
use ark_ec::VariableBaseMSM;
use ark_ff::{Field as _, UniformRand, Zero};
use wgpu_msm::testing::{random_bases, random_scalars};
use wgpu_msm::{DirectUploads, Error, MsmConfig, MulPath};

mod common;
use common::*;

fn ark(bases: &[G1Affine], scalars: &[Fr]) -> G1Projective {
    G1Projective::msm(&bases[..scalars.len()], scalars).expect("equal lengths")
}

fn copied(ctx: &mut Ctx) {
    let mut tuning = ctx.dev.tuning().expect("tuning");
    tuning.direct_uploads = DirectUploads::None;
    tuning.retire_on_poller = true;
    tuning.fold_indirect = false;
    tuning.resident_overlap_log2 = 11;
    tuning.stream_overlap_log2 = 11;
    tuning.scatter_bins = false;
    ctx.dev.set_tuning(tuning).expect("set_tuning");
    assert!(
        !ctx.dev.uploads_in_place(),
        "{} DirectUploads::None must turn reading uploads in place off",
        ctx.tag()
    );
    // Passes of at most 512 points: a 3000-point MSM streams in several chunks through
    // both input slots, each copied out of its upload buffer.
    let cfg = MsmConfig {
        chunk_size: Some(512),
        ..ctx.cfg()
    };
    let n = 3000;
    let bases = random_bases(n, n, ctx.next_seed());
    let scalars = random_scalars(n, ctx.next_seed());
    let msm = |ctx: &Ctx, label: &str, b: &[G1Affine], s: &[Fr]| {
        let got = ctx
            .dev
            .msm(b, s, &cfg)
            .unwrap_or_else(|e| panic!("{} {label} (n = {}): {e}", ctx.tag(), b.len()));
        assert!(got == ark(b, s), "{} {label} (n = {})", ctx.tag(), b.len());
    };
    msm(ctx, "random", &bases, &scalars);
    msm(ctx, "one point", &bases[..1], &scalars[..1]);
    msm(ctx, "non-power of two", &bases[..1027], &scalars[..1027]);
    let mut inf = bases.clone();
    for i in (0..n).step_by(5) {
        inf[i] = G1Affine::identity();
    }
    msm(ctx, "every fifth base at infinity", &inf, &scalars);
    let s = Fr::rand(&mut ctx.rng);
    msm(ctx, "all scalars equal", &bases, &vec![s; n]);
    let edge: Vec<Fr> = (0..n)
        .map(|i| match i % 3 {
            0 => Fr::zero(),
            1 => -Fr::ONE,
            _ => scalars[i],
        })
        .collect();
    msm(ctx, "zero and r - 1 scalars", &bases, &edge);
    // P in one chunk, -P in the next, equal scalars: the sum is zero.
    let pm: Vec<G1Affine> = (0..1024)
        .map(|i| if i < 512 { bases[i] } else { -bases[i - 512] })
        .collect();
    let eq: Vec<Fr> = (0..1024).map(|i| scalars[i % 512]).collect();
    let got = ctx.dev.msm(&pm, &eq, &cfg).unwrap();
    assert!(got.is_zero(), "{} P and -P in two chunks", ctx.tag());

    // A base off the curve in the fourth chunk is reported with its index.
    let mut bad = bases.clone();
    let at = 3 * 512 + 17;
    bad[at] = G1Affine::new_unchecked(bad[at].x, bad[at].y + Fq::ONE);
    match ctx.dev.msm(&bad, &scalars, &cfg) {
        Err(Error::PointNotOnCurve { index }) => assert_eq!(index, at, "{}", ctx.tag()),
        other => panic!("{} off-curve base gave {other:?}", ctx.tag()),
    }
    // The device is fine afterwards.
    msm(ctx, "random after an error", &bases, &scalars);

    // Windows whose scatter goes through bins by default take atomic cursors here.
    let hot = vec![Fr::rand(&mut ctx.rng); n];
    for c in [14u32, 17] {
        let wide = glv_windows_of(c, cfg.clone());
        for (label, s) in [("random", &scalars), ("all scalars equal", &hot)] {
            let got = ctx.dev.msm(&bases, s, &wide).unwrap_or_else(|e| {
                panic!("{} {label}, window_bits = {c}, cursors: {e}", ctx.tag())
            });
            assert!(
                got == ark(&bases, s),
                "{} {label}, window_bits = {c}, cursors",
                ctx.tag()
            );
        }
    }

    // A batch over resident bases: scalars staged per turn and copied.
    let srs = ctx.dev.upload_bases(&bases).expect("upload");
    let sets: Vec<Vec<Fr>> = (0..5)
        .map(|k| random_scalars(600 * (k + 1), ctx.next_seed()))
        .collect();
    let refs: Vec<&[Fr]> = sets.iter().map(Vec::as_slice).collect();
    let got = ctx
        .dev
        .msm_batch(&srs, &refs, &cfg)
        .unwrap_or_else(|e| panic!("{} batch: {e}", ctx.tag()));
    assert_eq!(got.len(), sets.len(), "{} batch", ctx.tag());
    for (k, s) in sets.iter().enumerate() {
        assert!(got[k] == ark(&bases, s), "{} batch set {k}", ctx.tag());
    }

    // Single resident MSMs from 2^11 points (`resident_overlap_log2: 11`) run in
    // growing passes over a capacity that holds them whole (3000 points: 1024, the
    // smallest first pass, then 1976; one pass of 3000 otherwise).
    let whole = ctx.cfg();
    for (label, s) in [
        ("random", scalars.clone()),
        ("zero and r - 1 scalars", edge.clone()),
        ("all scalars equal", vec![s; n]),
    ] {
        let got = ctx
            .dev
            .msm_with(&srs, &s, &whole)
            .unwrap_or_else(|e| panic!("{} resident {label}: {e}", ctx.tag()));
        assert!(
            got == ark(&bases, &s),
            "{} resident growing passes, {label}",
            ctx.tag()
        );
    }
    let profiled = MsmConfig {
        profile: true,
        ..ctx.cfg()
    };
    // A profiled run of `msm` matches arkworks and ran in two passes.
    let two_passes = |label: &str, msm: &dyn Fn() -> wgpu_msm::Result<G1Projective>| {
        let got = msm().unwrap_or_else(|e| panic!("{} {label}, profiled: {e}", ctx.tag()));
        assert!(
            got == ark(&bases, &scalars),
            "{} {label}, profiled",
            ctx.tag()
        );
        let passes = ctx.dev.last_profile().map(|p| p.passes);
        assert_eq!(
            passes,
            Some(2),
            "{} {label}: passes of 3000 points",
            ctx.tag()
        );
    };
    two_passes("resident", &|| ctx.dev.msm_with(&srs, &scalars, &profiled));
    // One-shot MSMs from 2^11 points (`stream_overlap_log2: 11`) without a chunk
    // size stream in growing chunks too, within a capacity that holds them whole (3000
    // points: 1024, then 1976; one chunk otherwise).
    for (label, b, s) in [
        ("random", &bases, scalars.clone()),
        ("zero and r - 1 scalars", &bases, edge.clone()),
        ("all scalars equal", &bases, vec![s; n]),
        ("every fifth base at infinity", &inf, scalars.clone()),
    ] {
        let got = ctx
            .dev
            .msm(b, &s, &whole)
            .unwrap_or_else(|e| panic!("{} one-shot {label}: {e}", ctx.tag()));
        assert!(
            got == ark(b, &s),
            "{} one-shot growing chunks, {label}",
            ctx.tag()
        );
    }
    two_passes("one-shot", &|| ctx.dev.msm(&bases, &scalars, &profiled));
    let mut bad = bases.clone();
    bad[2000] = G1Affine::new_unchecked(bad[2000].x, bad[2000].y + Fq::ONE);
    match ctx.dev.msm(&bad, &scalars, &whole) {
        Err(Error::PointNotOnCurve { index }) => assert_eq!(index, 2000, "{}", ctx.tag()),
        other => panic!(
            "{} off-curve base in the second chunk gave {other:?}",
            ctx.tag()
        ),
    }
    let srs2 = ctx.dev.upload_bases(&bases[..2049]).expect("upload");
    let got = ctx.dev.msm_with(&srs2, &scalars[..2049], &whole).unwrap();
    assert!(
        got == ark(&bases, &scalars[..2049]),
        "{} resident growing passes, 2049 points",
        ctx.tag()
    );
}

#[test]
fn copied_uploads_both_paths() {
    for_each_device("copied_uploads_wide64", MulPath::Wide64, copied);
    for_each_device("copied_uploads_portable32", MulPath::Portable32, copied);
}
