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
mod group_checks;

use ark_ec::short_weierstrass::Projective;
use ark_ec::VariableBaseMSM;
use common::{for_each_device, with_fq32, Ctx};
use group_checks::{adversarial, bases, check, off_curve, random, resident_and_batch, scalars};
use wgpu_msm::shader::Fq32;
use wgpu_msm::{Group, MsmConfig, MulPath};

type Bn = ark_bn254::g2::Config;
type Bls = ark_bls12_381::g2::Config;

/// One small MSM (n = 5), the first call building the group's pipelines.
fn small<C: Group>(ctx: &mut Ctx) {
    let (b, s) = (bases::<C>(ctx, 5), scalars::<C>(ctx, 5));
    check(ctx, "random n = 5", &b, &s);
}

/// GLV asked for (`MsmConfig::glv = Some(true)`: G2's endomorphism with G1's scalar
/// split, expanded bases): one-shot and resident MSMs of random points, of one point with
/// scalar r - 1, of all scalars equal and of P beside -P, against arkworks.
fn glv<C: Group>(ctx: &mut Ctx) {
    use ark_ec::CurveGroup;
    use ark_ff::Field;
    let cfg = MsmConfig {
        glv: Some(true),
        ..ctx.cfg()
    };
    let mut cases = Vec::new();
    for n in [1usize, 5, 300] {
        cases.push((
            format!("random n = {n}"),
            bases::<C>(ctx, n),
            scalars::<C>(ctx, n),
        ));
    }
    let b = bases::<C>(ctx, 64);
    let s = vec![scalars::<C>(ctx, 1)[0]; 64];
    cases.push(("all scalars equal, n = 64".into(), b.clone(), s));
    cases.push(("r - 1".into(), b[..1].to_vec(), vec![-C::ScalarField::ONE]));
    let pm = vec![b[0], -b[0]];
    cases.push(("P and -P".into(), pm, scalars::<C>(ctx, 2)));
    for (what, b, s) in cases {
        let want = Projective::<C>::msm(&b, &s).expect("lengths").into_affine();
        let got = ctx
            .dev
            .msm(&b, &s, &cfg)
            .unwrap_or_else(|e| panic!("{} {} GLV {what}: {e}", ctx.tag(), C::ID));
        assert_eq!(
            got.into_affine(),
            want,
            "{} {} GLV one-shot {what}",
            ctx.tag(),
            C::ID
        );
        let resident = ctx.dev.upload_bases_with(&b, &cfg).expect("upload");
        assert!(
            resident.expanded(),
            "{} GLV bases are stored expanded",
            C::ID
        );
        let got = ctx.dev.msm_with(&resident, &s, &cfg).expect("msm_with");
        assert_eq!(
            got.into_affine(),
            want,
            "{} {} GLV resident {what}",
            ctx.tag(),
            C::ID
        );
    }
}

/// BN254 G2 with GLV asked for, on Portable32 (the path every adapter has).
#[test]
fn bn254_g2_glv() {
    for_each_device("bn254_g2_glv", MulPath::Portable32, glv::<Bn>);
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
        with_fq32(ctx, Fq32::Small, |ctx| {
            random::<Bn>(ctx);
            adversarial::<Bn>(ctx);
        })
    }
);
ignored!(bn254_g2_glv_wide64, MulPath::Wide64, glv::<Bn>);
ignored!(bls12_381_g2_glv_wide64, MulPath::Wide64, glv::<Bls>);
ignored!(bls12_381_g2_glv_portable32, MulPath::Portable32, glv::<Bls>);
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
