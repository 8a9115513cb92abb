//! The checks a group's GPU test binary runs (tests/g2.rs for the G2 groups,
//! tests/bls12_381.rs for BLS12-381 G1), generic over the group: random and adversarial
//! MSMs against arkworks, resident and batch calls, an off-curve base. Each takes the
//! harness's context (tests/common), whose seeds are printed on failure.

use crate::common::Ctx;
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::{Field, One, Zero};
use std::time::Instant;
use wgpu_msm::testing::{naive_msm, random_bases_in, random_scalars_in};
use wgpu_msm::{Error, Group};

/// `n` random bases from the context's next seed; at most 97 distinct for a G2 group and
/// 257 for a G1 group (random G2 points cost more to make on the host).
pub fn bases<C: Group>(ctx: &mut Ctx, n: usize) -> Vec<Affine<C>> {
    let seed = ctx.next_seed();
    let distinct = if C::ID.degree() == 2 { 97 } else { 257 };
    random_bases_in::<C>(n, n.min(distinct), seed)
}

/// `n` random scalars from the context's next seed.
pub fn scalars<C: Group>(ctx: &mut Ctx, n: usize) -> Vec<C::ScalarField> {
    let seed = ctx.next_seed();
    random_scalars_in::<C>(n, seed)
}

/// The device's MSM equals arkworks' (and, for small inputs, the naive sum).
pub fn check<C: Group>(ctx: &Ctx, what: &str, b: &[Affine<C>], s: &[C::ScalarField]) {
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

/// Random MSMs of sizes 0 to 4097.
pub fn random<C: Group>(ctx: &mut Ctx) {
    for n in [0usize, 1, 2, 5, 33, 1000, 4097] {
        let (b, s) = (bases::<C>(ctx, n), scalars::<C>(ctx, n));
        check(ctx, &format!("random n = {n}"), &b, &s);
    }
}

/// Zero and r - 1 scalars, P and -P, infinity, repeated points, all scalars equal (one
/// hot bucket), n = 0, 1 and 3.
pub fn adversarial<C: Group>(ctx: &mut Ctx) {
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

/// Resident bases (`msm_with`), resident bases and scalars (`msm_resident`), a batch of
/// three scalar sets, a chunked one-shot MSM (several streamed passes) and GLV asked for
/// explicitly (for G2 its endomorphism with G1's split), all against arkworks.
/// The uploaded bases take the device bytes every group stores by default: twice the
/// bases, each beside its endomorphism image.
pub fn resident_and_batch<C: Group>(ctx: &mut Ctx) {
    let n = 777;
    let (b, s) = (bases::<C>(ctx, n), scalars::<C>(ctx, n));
    let cfg = ctx.cfg();
    let tag = format!("{} {}", ctx.tag(), C::ID);
    let want = Projective::<C>::msm(&b, &s).unwrap();
    let dev = ctx.dev;
    let db = dev.upload_bases_with(&b, &cfg).unwrap();
    assert_eq!(
        db.device_bytes(),
        2 * C::ID.base_bytes() * n as u64,
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
    let mut chunked = cfg.clone();
    chunked.chunk_size = Some(128);
    assert_eq!(dev.msm(&b, &s, &chunked).unwrap(), want, "{tag} chunked");
    let mut glv = cfg.clone();
    glv.glv = Some(true);
    assert_eq!(dev.msm(&b, &s, &glv).unwrap(), want, "{tag} glv asked");
}

/// A base off the curve is `Error::PointNotOnCurve` with its index.
pub fn off_curve<C: Group>(ctx: &mut Ctx) {
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
