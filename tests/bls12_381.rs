//! BLS12-381 G1 on the GPU against arkworks (random and adversarial inputs, resident
//! and batch calls, both multiply paths) and against the CUDA vectors of
//! tests/data/bls12-381-g1-*. Every test runs once per device and path; seeds are
//! printed on failure (see tests/common).

mod common;
mod group_checks;

use ark_bls12_381::{G1Affine, G1Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use common::{for_each_device, Ctx};
use group_checks::{adversarial, off_curve, random, resident_and_batch};
use std::sync::OnceLock;
use wgpu_msm::testing::bls12_381::{parity_bases, parity_expected, parity_inputs, parity_sizes};
use wgpu_msm::testing::{random_bases_in, random_scalars_in};
use wgpu_msm::MulPath;

type C = ark_bls12_381::g1::Config;

#[test]
fn random_wide64() {
    for_each_device("bls12_381_random_wide64", MulPath::Wide64, random::<C>);
}

#[test]
fn random_portable32() {
    for_each_device(
        "bls12_381_random_portable32",
        MulPath::Portable32,
        random::<C>,
    );
}

#[test]
fn adversarial_wide64() {
    for_each_device(
        "bls12_381_adversarial_wide64",
        MulPath::Wide64,
        adversarial::<C>,
    );
}

#[test]
fn adversarial_portable32() {
    for_each_device(
        "bls12_381_adversarial_portable32",
        MulPath::Portable32,
        adversarial::<C>,
    );
}

#[test]
fn resident_and_batch_wide64() {
    for_each_device(
        "bls12_381_resident_and_batch_wide64",
        MulPath::Wide64,
        resident_and_batch::<C>,
    );
}

#[test]
fn resident_and_batch_portable32() {
    for_each_device(
        "bls12_381_resident_and_batch_portable32",
        MulPath::Portable32,
        resident_and_batch::<C>,
    );
}

#[test]
fn off_curve_wide64() {
    for_each_device(
        "bls12_381_off_curve_wide64",
        MulPath::Wide64,
        off_curve::<C>,
    );
}

#[test]
fn off_curve_portable32() {
    for_each_device(
        "bls12_381_off_curve_portable32",
        MulPath::Portable32,
        off_curve::<C>,
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
