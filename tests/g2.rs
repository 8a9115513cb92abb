//! G2 of BN254 and BLS12-381 on the GPU against arkworks (random and adversarial inputs,
//! resident and batch calls, an off-curve base; both multiply paths, and BN254's small
//! limbs on Portable32). Every test runs once per device and path; seeds are printed on
//! failure (see tests/common).
//!
//! A G2 MSM shader is G1's over Fq2 (about three times the code in each point addition),
//! and a software driver compiles it for minutes (docs/curves.md has the times), so
//! only `bn254_g2_small` (one small MSM) runs by default; the others are ignored for
//! that reason and run on a hardware GPU with
//! `cargo test --release --test g2 -- --ignored`.

mod common;

use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::{Field, One, Zero};
use common::{for_each_device, Ctx};
use std::time::Instant;
use wgpu_msm::shader::Fq32;
use wgpu_msm::testing::{naive_msm, random_bases_in, random_scalars_in};
use wgpu_msm::{Error, Group, MulPath};

type Bn = ark_bn254::g2::Config;
type Bls = ark_bls12_381::g2::Config;

fn bases<C: Group>(ctx: &mut Ctx, n: usize) -> Vec<Affine<C>> {
    let seed = ctx.next_seed();
    random_bases_in::<C>(n, n.min(97), seed)
}

fn scalars<C: Group>(ctx: &mut Ctx, n: usize) -> Vec<C::ScalarField> {
    let seed = ctx.next_seed();
    random_scalars_in::<C>(n, seed)
}

/// The device's MSM equals arkworks' (and, for small inputs, the naive sum).
fn check<C: Group>(ctx: &Ctx, what: &str, b: &[Affine<C>], s: &[C::ScalarField]) {
    let t = Instant::now();
    let got = ctx
        .dev
        .msm(b, s, &ctx.cfg())
        .unwrap_or_else(|e| panic!("{} {} {what}: {e}", ctx.tag(), C::ID));
    eprintln!("{} {what}: {:.1?}", C::ID, t.elapsed());
    let want = Projective::<C>::msm(b, s).expect("equal lengths");
    assert_eq!(
        got.into_affine(),
        want.into_affine(),
        "{} {} {what}",
        ctx.tag(),
        C::ID
    );
    if b.len() <= 64 {
        assert_eq!(
            got,
            naive_msm(b, s),
            "{} {} {what} (naive)",
            ctx.tag(),
            C::ID
        );
    }
}

/// One small MSM (n = 5), the first call building the group's pipelines.
fn small<C: Group>(ctx: &mut Ctx) {
    let (b, s) = (bases::<C>(ctx, 5), scalars::<C>(ctx, 5));
    check(ctx, "random n = 5", &b, &s);
}

fn random<C: Group>(ctx: &mut Ctx) {
    for n in [0usize, 1, 2, 5, 33, 1000, 4097] {
        let (b, s) = (bases::<C>(ctx, n), scalars::<C>(ctx, n));
        check(ctx, &format!("random n = {n}"), &b, &s);
    }
}

fn adversarial<C: Group>(ctx: &mut Ctx) {
    let n = 301;
    let b = bases::<C>(ctx, n);
    let s = scalars::<C>(ctx, n);
    let zero = C::ScalarField::zero();
    let r_minus_1 = -C::ScalarField::one();
    // Zero and r - 1 scalars.
    check(ctx, "zero scalars", &b, &vec![zero; n]);
    check(ctx, "r - 1 scalars", &b, &vec![r_minus_1; n]);
    let mut mixed = s.clone();
    for i in (0..n).step_by(3) {
        mixed[i] = if i % 2 == 0 { zero } else { r_minus_1 };
    }
    check(ctx, "zero and r - 1 among random", &b, &mixed);
    // P and -P with equal scalars cancel; infinity among the bases.
    let mut pm = b.clone();
    for i in (0..n - 1).step_by(2) {
        pm[i + 1] = -pm[i];
    }
    let eq: Vec<C::ScalarField> = (0..n).map(|i| s[i - i % 2]).collect();
    check(ctx, "P and -P", &pm, &eq);
    let mut inf = b.clone();
    for i in (0..n).step_by(7) {
        inf[i] = Affine::<C>::zero();
    }
    check(ctx, "infinity among the bases", &inf, &s);
    check(ctx, "all infinity", &[Affine::<C>::zero(); 17], &s[..17]);
    // Repeated points, all scalars equal, odd sizes.
    let rep = vec![b[0]; n];
    check(ctx, "one point repeated", &rep, &s);
    check(ctx, "all scalars equal", &b, &vec![s[0]; n]);
    check(ctx, "one point, one scalar", &rep, &vec![s[1]; n]);
    check(ctx, "n = 1, r - 1", &b[..1], &[r_minus_1]);
    check(ctx, "n = 0", &b[..0], &s[..0]);
    check(
        ctx,
        "n = 3, P, -P, 2P",
        &[b[0], -b[0], (b[0] + b[0]).into_affine()],
        &s[..3],
    );
}

fn resident_and_batch<C: Group>(ctx: &mut Ctx) {
    let n = 777;
    let (b, s) = (bases::<C>(ctx, n), scalars::<C>(ctx, n));
    let cfg = ctx.cfg();
    let tag = format!("{} {}", ctx.tag(), C::ID);
    let want = Projective::<C>::msm(&b, &s).unwrap();
    let dev = ctx.dev;
    // G2 bases are never stored expanded (no GLV): x and y, c0 and c1 each.
    let db = dev.upload_bases_with(&b, &cfg).unwrap();
    assert_eq!(
        db.device_bytes(),
        4 * 2 * C::ELEMENT_WORDS as u64 * n as u64,
        "{tag} bases"
    );
    assert_eq!(dev.msm_with(&db, &s, &cfg).unwrap(), want, "{tag} msm_with");
    let ds = dev.upload_scalars(&s).unwrap();
    assert_eq!(
        dev.msm_resident(&db, &ds, &cfg).unwrap(),
        want,
        "{tag} resident"
    );
    let plain = dev.upload_bases(&b[..500]).unwrap();
    let sets: Vec<Vec<C::ScalarField>> = (0..3).map(|k| s[..500 - 100 * k].to_vec()).collect();
    let refs: Vec<&[C::ScalarField]> = sets.iter().map(Vec::as_slice).collect();
    let got = dev.msm_batch(&plain, &refs, &cfg).unwrap();
    for (k, set) in sets.iter().enumerate() {
        let want = Projective::<C>::msm(&b[..set.len()], set).unwrap();
        assert_eq!(got[k], want, "{tag} batch set {k}");
    }
    // A chunked one-shot MSM (several streamed passes).
    let mut chunked = cfg.clone();
    chunked.chunk_size = Some(128);
    assert_eq!(dev.msm(&b, &s, &chunked).unwrap(), want, "{tag} chunked");
    // GLV asked for explicitly: G2 has none here, so the same whole-scalar MSM.
    let mut glv = cfg.clone();
    glv.glv = Some(true);
    assert_eq!(dev.msm(&b, &s, &glv).unwrap(), want, "{tag} glv asked");
}

fn off_curve<C: Group>(ctx: &mut Ctx) {
    let mut b = bases::<C>(ctx, 100);
    let s = scalars::<C>(ctx, 100);
    b[37] = Affine::<C>::new_unchecked(b[37].x, b[37].y + C::BaseField::ONE);
    let r = ctx.dev.msm(&b, &s, &ctx.cfg());
    assert!(
        matches!(r, Err(Error::PointNotOnCurve { index: 37 })),
        "{} {} {r:?}",
        ctx.tag(),
        C::ID
    );
}

/// Runs `f` on every device with Portable32's small limbs (BN254) instead of the
/// device's tuned Fq representation, then restores the tuning.
fn with_small_limbs(ctx: &mut Ctx, f: fn(&mut Ctx)) {
    let dev = ctx.dev;
    let before = dev.tuning().unwrap();
    let mut t = before.clone();
    t.fq32 = Fq32::Small;
    dev.set_tuning(t).unwrap();
    f(ctx);
    dev.set_tuning(before).unwrap();
}

/// One small BN254 G2 MSM: the G2 test a software driver runs in CI (its pipeline
/// build is most of its time).
#[test]
fn bn254_g2_small() {
    for_each_device("bn254_g2_small", MulPath::Portable32, small::<Bn>);
}

macro_rules! ignored {
    ($name:ident, $path:expr, $f:expr) => {
        #[test]
        #[ignore = "G2 pipelines build for minutes on a software driver: run on a GPU with --ignored"]
        fn $name() {
            for_each_device(stringify!($name), $path, $f);
        }
    };
}

ignored!(bn254_g2_small_wide64, MulPath::Wide64, small::<Bn>);
ignored!(bn254_g2_random_wide64, MulPath::Wide64, random::<Bn>);
ignored!(
    bn254_g2_random_portable32,
    MulPath::Portable32,
    random::<Bn>
);
ignored!(
    bn254_g2_adversarial_wide64,
    MulPath::Wide64,
    adversarial::<Bn>
);
ignored!(
    bn254_g2_adversarial_portable32,
    MulPath::Portable32,
    adversarial::<Bn>
);
ignored!(
    bn254_g2_resident_and_batch_wide64,
    MulPath::Wide64,
    resident_and_batch::<Bn>
);
ignored!(
    bn254_g2_resident_and_batch_portable32,
    MulPath::Portable32,
    resident_and_batch::<Bn>
);
ignored!(bn254_g2_off_curve_wide64, MulPath::Wide64, off_curve::<Bn>);
ignored!(
    bn254_g2_off_curve_portable32,
    MulPath::Portable32,
    off_curve::<Bn>
);
ignored!(
    bn254_g2_small_limbs_portable32,
    MulPath::Portable32,
    |ctx| {
        with_small_limbs(ctx, |ctx| {
            random::<Bn>(ctx);
            adversarial::<Bn>(ctx);
        })
    }
);
ignored!(bls12_381_g2_small_wide64, MulPath::Wide64, small::<Bls>);
ignored!(
    bls12_381_g2_small_portable32,
    MulPath::Portable32,
    small::<Bls>
);
ignored!(bls12_381_g2_random_wide64, MulPath::Wide64, random::<Bls>);
ignored!(
    bls12_381_g2_random_portable32,
    MulPath::Portable32,
    random::<Bls>
);
ignored!(
    bls12_381_g2_adversarial_wide64,
    MulPath::Wide64,
    adversarial::<Bls>
);
ignored!(
    bls12_381_g2_adversarial_portable32,
    MulPath::Portable32,
    adversarial::<Bls>
);
ignored!(
    bls12_381_g2_resident_and_batch_wide64,
    MulPath::Wide64,
    resident_and_batch::<Bls>
);
ignored!(
    bls12_381_g2_resident_and_batch_portable32,
    MulPath::Portable32,
    resident_and_batch::<Bls>
);
ignored!(
    bls12_381_g2_off_curve_wide64,
    MulPath::Wide64,
    off_curve::<Bls>
);
ignored!(
    bls12_381_g2_off_curve_portable32,
    MulPath::Portable32,
    off_curve::<Bls>
);
