//! BLS12-381 G1 on the GPU against arkworks (random and adversarial inputs, resident
//! and batch calls, both multiply paths) and against the CUDA vectors of
//! tests/data/bls12-381-g1-*. Every test runs once per device and path; seeds are
//! printed on failure (see tests/common).

mod common;

use ark_bls12_381::{Fr, G1Affine, G1Projective};
use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::{One, Zero};
use common::{for_each_device, Ctx};
use std::sync::OnceLock;
use wgpu_msm::testing::bls12_381::{parity_bases, parity_expected, parity_inputs, parity_sizes};
use wgpu_msm::testing::{naive_msm, random_bases_in, random_scalars_in};
use wgpu_msm::{Error, MulPath};

type C = ark_bls12_381::g1::Config;

fn bases(ctx: &mut Ctx, n: usize) -> Vec<G1Affine> {
    let seed = ctx.next_seed();
    random_bases_in::<C>(n, n.min(257), seed)
}

fn scalars(ctx: &mut Ctx, n: usize) -> Vec<Fr> {
    let seed = ctx.next_seed();
    random_scalars_in::<C>(n, seed)
}

/// The device's MSM equals arkworks' (and, for small inputs, the naive sum).
fn check(ctx: &Ctx, what: &str, b: &[G1Affine], s: &[Fr]) {
    let got = ctx
        .dev
        .msm(b, s, &ctx.cfg())
        .unwrap_or_else(|e| panic!("{} {what}: {e}", ctx.tag()));
    let want = G1Projective::msm(b, s).expect("equal lengths");
    assert_eq!(
        got.into_affine(),
        want.into_affine(),
        "{} {what}",
        ctx.tag()
    );
    if b.len() <= 64 {
        assert_eq!(got, naive_msm(b, s), "{} {what} (naive)", ctx.tag());
    }
}

fn random(ctx: &mut Ctx) {
    for n in [0usize, 1, 2, 5, 33, 1000, 4097] {
        let (b, s) = (bases(ctx, n), scalars(ctx, n));
        check(ctx, &format!("random n = {n}"), &b, &s);
    }
}

#[test]
fn random_wide64() {
    for_each_device("bls12_381_random_wide64", MulPath::Wide64, random);
}

#[test]
fn random_portable32() {
    for_each_device("bls12_381_random_portable32", MulPath::Portable32, random);
}

fn adversarial(ctx: &mut Ctx) {
    let n = 301;
    let b = bases(ctx, n);
    let s = scalars(ctx, n);
    let r_minus_1 = -Fr::one();
    // Zero and r - 1 scalars.
    check(ctx, "zero scalars", &b, &vec![Fr::zero(); n]);
    check(ctx, "r - 1 scalars", &b, &vec![r_minus_1; n]);
    let mut mixed = s.clone();
    for i in (0..n).step_by(3) {
        mixed[i] = if i % 2 == 0 { Fr::zero() } else { r_minus_1 };
    }
    check(ctx, "zero and r - 1 among random", &b, &mixed);
    // P and -P with equal scalars cancel; infinity among the bases.
    let mut pm = b.clone();
    for i in (0..n - 1).step_by(2) {
        pm[i + 1] = -pm[i];
    }
    let eq: Vec<Fr> = (0..n).map(|i| s[i - i % 2]).collect();
    check(ctx, "P and -P", &pm, &eq);
    let mut inf = b.clone();
    for i in (0..n).step_by(7) {
        inf[i] = G1Affine::zero();
    }
    check(ctx, "infinity among the bases", &inf, &s);
    check(ctx, "all infinity", &vec![G1Affine::zero(); 17], &s[..17]);
    // Repeated points, all scalars equal.
    let rep = vec![b[0]; n];
    check(ctx, "one point repeated", &rep, &s);
    check(ctx, "all scalars equal", &b, &vec![s[0]; n]);
    check(ctx, "one point, one scalar", &rep, &vec![s[1]; n]);
}

#[test]
fn adversarial_wide64() {
    for_each_device("bls12_381_adversarial_wide64", MulPath::Wide64, adversarial);
}

#[test]
fn adversarial_portable32() {
    for_each_device(
        "bls12_381_adversarial_portable32",
        MulPath::Portable32,
        adversarial,
    );
}

fn resident_and_batch(ctx: &mut Ctx) {
    let n = 777;
    let (b, s) = (bases(ctx, n), scalars(ctx, n));
    let cfg = ctx.cfg();
    let tag = ctx.tag();
    let want = G1Projective::msm(&b, &s).unwrap();
    let dev = ctx.dev;
    let db = dev.upload_bases_with(&b, &cfg).unwrap();
    assert_eq!(db.device_bytes(), 2 * 96 * n as u64, "{tag} expanded bases");
    assert_eq!(dev.msm_with(&db, &s, &cfg).unwrap(), want, "{tag} msm_with");
    let ds = dev.upload_scalars(&s).unwrap();
    assert_eq!(
        dev.msm_resident(&db, &ds, &cfg).unwrap(),
        want,
        "{tag} resident"
    );
    let plain = dev.upload_bases(&b[..500]).unwrap();
    let sets: Vec<Vec<Fr>> = (0..3).map(|k| s[..500 - 100 * k].to_vec()).collect();
    let refs: Vec<&[Fr]> = sets.iter().map(Vec::as_slice).collect();
    let got = dev.msm_batch(&plain, &refs, &cfg).unwrap();
    for (k, set) in sets.iter().enumerate() {
        let want = G1Projective::msm(&b[..set.len()], set).unwrap();
        assert_eq!(got[k], want, "{tag} batch set {k}");
    }
    // A chunked one-shot MSM (several streamed passes).
    let mut chunked = cfg.clone();
    chunked.chunk_size = Some(128);
    assert_eq!(dev.msm(&b, &s, &chunked).unwrap(), want, "{tag} chunked");
}

#[test]
fn resident_and_batch_wide64() {
    for_each_device(
        "bls12_381_resident_and_batch_wide64",
        MulPath::Wide64,
        resident_and_batch,
    );
}

#[test]
fn resident_and_batch_portable32() {
    for_each_device(
        "bls12_381_resident_and_batch_portable32",
        MulPath::Portable32,
        resident_and_batch,
    );
}

fn off_curve(ctx: &mut Ctx) {
    let mut b = bases(ctx, 100);
    let s = scalars(ctx, 100);
    b[37] = G1Affine::new_unchecked(b[37].x, b[37].y + ark_bls12_381::Fq::one());
    let r = ctx.dev.msm(&b, &s, &ctx.cfg());
    assert!(
        matches!(r, Err(Error::PointNotOnCurve { index: 37 })),
        "{} {r:?}",
        ctx.tag()
    );
}

#[test]
fn off_curve_wide64() {
    for_each_device("bls12_381_off_curve_wide64", MulPath::Wide64, off_curve);
}

#[test]
fn off_curve_portable32() {
    for_each_device(
        "bls12_381_off_curve_portable32",
        MulPath::Portable32,
        off_curve,
    );
}

fn table() -> &'static [G1Affine] {
    static TABLE: OnceLock<Vec<G1Affine>> = OnceLock::new();
    TABLE.get_or_init(|| parity_bases(wgpu_msm::testing::bls12_381::PARITY_BASES))
}

/// The CUDA vectors from 2^10 to 2^16 (the sizes a software driver runs in minutes).
fn cuda_parity(ctx: &mut Ctx) {
    for lg in parity_sizes().into_iter().filter(|&lg| lg <= 16) {
        let (b, s) = parity_inputs(table(), 1 << lg);
        let want = parity_expected(lg).expect("listed size");
        let got = ctx.dev.msm(&b, &s, &ctx.cfg()).unwrap();
        assert_eq!(got.into_affine(), want, "{} 2^{lg}", ctx.tag());
    }
}

#[test]
fn cuda_parity_wide64() {
    for_each_device("bls12_381_cuda_parity_wide64", MulPath::Wide64, cuda_parity);
}

#[test]
fn cuda_parity_portable32() {
    for_each_device(
        "bls12_381_cuda_parity_portable32",
        MulPath::Portable32,
        cuda_parity,
    );
}

/// `Cluster` over BLS12-381 G1: every strategy, with the CPU worker, and resident bases
/// and scalars split across the devices.
#[test]
fn cluster() {
    use wgpu_msm::{Cluster, MsmConfig, Strategy};
    let devices = common::devices().to_vec();
    let seed = common::base_seed() ^ 0xc1u64;
    let n = 3001;
    let b = random_bases_in::<C>(n, 300, seed);
    let s = random_scalars_in::<C>(n, seed ^ 1);
    let want = G1Projective::msm(&b, &s).unwrap();
    let tag = format!(
        "[cluster; reproduce with WGPU_MSM_SEED={}]",
        common::base_seed()
    );
    let cfg = MsmConfig::default();
    for strategy in [
        Strategy::Auto,
        Strategy::Even,
        Strategy::Weighted,
        Strategy::Dynamic,
        Strategy::Windows,
    ] {
        let cl = Cluster::new(devices.clone())
            .unwrap()
            .with_strategy(strategy);
        assert_eq!(cl.msm(&b, &s, &cfg).unwrap(), want, "{tag} {strategy:?}");
        let rb = cl.upload_bases(&b).unwrap();
        assert_eq!(
            cl.msm_with(&rb, &s, &cfg).unwrap(),
            want,
            "{tag} {strategy:?} resident"
        );
        let rs = cl.upload_scalars(&rb, &s).unwrap();
        assert_eq!(
            cl.msm_resident(&rb, &rs, &cfg).unwrap(),
            want,
            "{tag} {strategy:?} all resident"
        );
    }
    let cl = Cluster::new(devices).unwrap().with_cpu_worker();
    assert_eq!(
        cl.msm(&b, &s, &cfg).unwrap(),
        want,
        "{tag} with the CPU worker"
    );
}
