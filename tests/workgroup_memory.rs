//! Reduction trees sized to the device's workgroup memory
//! (`shader::stages::reduce_wg`): every device is opened with 16 KiB of it, WebGPU's
//! guaranteed minimum (`WGPU_MSM_MAX_WORKGROUP_STORAGE`), where BN254 G1 reduces in
//! trees of 32 points and BN254 G2 with Portable32's small limbs in trees of 16 (64 of
//! its points take 40 KiB). In 12-bit windows (2^11 buckets) trees of 32 or
//! 16 points reduce in three stages, so every kind of stage of msm_reduce.wgsl runs.
//! Results are checked against arkworks; seeds are printed on failure (tests/common).

mod common;

use ark_ec::short_weierstrass::Projective;
use ark_ec::{CurveGroup, VariableBaseMSM};
use common::{devices, for_each_device, Ctx};
use std::sync::Once;
use wgpu_msm::msm::plan::reduce_wg;
use wgpu_msm::shader::Fq32;
use wgpu_msm::testing::{random_bases_in, random_scalars_in};
use wgpu_msm::{Group, MsmConfig, MulPath};

/// Workgroup memory the devices of this binary are opened with.
const STORAGE: u32 = 16 << 10;

/// Caps the workgroup memory of every device this process opens; runs before the
/// first test opens them.
fn cap_workgroup_memory() {
    static CAP: Once = Once::new();
    CAP.call_once(|| std::env::set_var("WGPU_MSM_MAX_WORKGROUP_STORAGE", STORAGE.to_string()));
    for d in devices() {
        assert!(
            d.info().max_workgroup_storage <= STORAGE,
            "{d:?} opened with {} bytes of workgroup memory, not at most {STORAGE}",
            d.info().max_workgroup_storage
        );
    }
}

/// MSMs of `n` points for several n with 12-bit windows, against arkworks.
fn windows_of_12<C: Group>(ctx: &mut Ctx) {
    let cfg = MsmConfig {
        window_bits: Some(12),
        ..ctx.cfg()
    };
    for n in [1usize, 300, 1000] {
        let b = random_bases_in::<C>(n, n.min(97), ctx.next_seed());
        let s = random_scalars_in::<C>(n, ctx.next_seed());
        let got = ctx
            .dev
            .msm(&b, &s, &cfg)
            .unwrap_or_else(|e| panic!("{} {} n = {n}: {e}", ctx.tag(), C::ID));
        let want = Projective::<C>::msm(&b, &s).expect("equal lengths");
        assert_eq!(
            got.into_affine(),
            want.into_affine(),
            "{} {} n = {n}",
            ctx.tag(),
            C::ID
        );
    }
}

#[test]
fn bn254_g1_reduces_in_trees_of_32() {
    cap_workgroup_memory();
    assert_eq!(reduce_wg(wgpu_msm::GroupId::Bn254G1, STORAGE), 32);
    for path in [MulPath::Wide64, MulPath::Portable32] {
        for_each_device(
            "bn254_g1_reduces_in_trees_of_32",
            path,
            windows_of_12::<ark_bn254::g1::Config>,
        );
    }
}

#[test]
fn bn254_g2_small_limbs_reduce_in_trees_of_16() {
    cap_workgroup_memory();
    assert_eq!(reduce_wg(wgpu_msm::GroupId::Bn254G2, STORAGE), 16);
    for_each_device(
        "bn254_g2_small_limbs_reduce_in_trees_of_16",
        MulPath::Portable32,
        |ctx| {
            let dev = ctx.dev;
            let before = dev.tuning().unwrap();
            let mut t = before.clone();
            t.fq32 = Fq32::Small;
            dev.set_tuning(t).unwrap();
            windows_of_12::<ark_bn254::g2::Config>(ctx);
            dev.set_tuning(before).unwrap();
        },
    );
}
