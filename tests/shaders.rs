//! CPU-only: every assembled shader variant passes naga's WGSL front end and validator,
//! and translates through the SPIR-V (Vulkan), MSL (Metal) and HLSL (DX12) back ends.
//! We have no Apple or Windows GPU to run on; this is the evidence for those platforms.

use wgpu_msm::shader::unroll::Unroll;
use wgpu_msm::shader::{source, source_for, source_variant, Fq32, ShaderKind};
use wgpu_msm::{GroupId, MulPath};

fn check(group: GroupId, kind: ShaderKind, path: MulPath, mode: Unroll, fq32: Fq32) {
    let src = source_for(group, kind, path, mode, fq32);
    let module = naga::front::wgsl::parse_str(&src).unwrap_or_else(|e| {
        panic!(
            "{kind:?}/{}: parse error:\n{}",
            path.name(),
            e.emit_to_string(&src)
        )
    });
    let caps = match path {
        MulPath::Wide64 => naga::valid::Capabilities::SHADER_INT64,
        MulPath::Portable32 => naga::valid::Capabilities::empty(),
    };
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), caps)
        .validate(&module)
        .unwrap_or_else(|e| {
            panic!(
                "{kind:?}/{}: invalid:\n{}",
                path.name(),
                e.emit_to_string(&src)
            )
        });
    for ep in kind.entry_points() {
        assert!(
            module.entry_points.iter().any(|e| e.name == ep),
            "{kind:?}: entry point {ep} missing"
        );
    }
    naga::back::spv::write_vec(&module, &info, &naga::back::spv::Options::default(), None)
        .unwrap_or_else(|e| panic!("{kind:?}/{}: SPIR-V: {e}", path.name()));
    let msl_opts = naga::back::msl::Options {
        lang_version: (2, 4),
        ..Default::default()
    };
    naga::back::msl::write_string(&module, &info, &msl_opts, &Default::default())
        .unwrap_or_else(|e| panic!("{kind:?}/{}: MSL: {e}", path.name()));
    let hlsl_opts = naga::back::hlsl::Options {
        shader_model: naga::back::hlsl::ShaderModel::V6_0,
        ..Default::default()
    };
    let mut hlsl = String::new();
    naga::back::hlsl::Writer::new(&mut hlsl, &hlsl_opts, &Default::default())
        .write(&module, &info, None)
        .unwrap_or_else(|e| panic!("{kind:?}/{}: HLSL: {e}", path.name()));
    assert!(!hlsl.is_empty());
}

#[test]
fn every_shader_variant_validates_and_translates() {
    for group in GroupId::ALL {
        for kind in ShaderKind::ALL.into_iter().filter(|k| k.exists_for(group)) {
            for path in [MulPath::Wide64, MulPath::Portable32] {
                for mode in [Unroll::Full, Unroll::Compact, Unroll::Rolled] {
                    for fq32 in [Fq32::Words, Fq32::Small] {
                        check(group, kind, path, mode, fq32);
                    }
                }
            }
        }
    }
}

#[test]
fn portable32_uses_no_64_bit_integers() {
    for (kind, fq32) in ShaderKind::ALL
        .into_iter()
        .flat_map(|k| [(k, Fq32::Words), (k, Fq32::Small)])
    {
        let src = source_variant(kind, MulPath::Portable32, Unroll::Compact, fq32);
        for group in GroupId::ALL.into_iter().skip(1) {
            if !kind.exists_for(group) {
                continue;
            }
            let other = source_for(group, kind, MulPath::Portable32, Unroll::Compact, fq32);
            assert!(
                !other.contains("u64"),
                "{kind:?} portable32 mentions u64 ({group})"
            );
        }
        assert!(!src.contains("u64"), "{kind:?} portable32 mentions u64");
        let module = naga::front::wgsl::parse_str(&src).unwrap();
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::empty(),
        )
        .validate(&module)
        .expect("portable32 must validate without SHADER_INT64");
    }
}

#[test]
fn generated_constants_match_arkworks() {
    let src = source(ShaderKind::Msm, MulPath::Portable32);
    // BN254 base field modulus, least significant 32-bit limb first.
    assert!(
        src.contains("const FQ_P = Big(0xd87cfd47u, 0x3c208c16u"),
        "{}",
        &src[..600]
    );
    assert!(src.contains("const FR_P = Big(0xf0000001u, 0x43e1f593u"));
    assert!(!src.contains("${"));
    // BLS12-381: 12 limbs, p = 0x1a0111ea...ffffaaab, r = 0x73eda753...00000001 padded
    // to 12 words, b = 4 in Montgomery form.
    let bls = bls12_381_g1_msm();
    assert!(bls.contains("const LIMBS: u32 = 12u;"));
    assert!(bls.contains("const FQ_P = Big(0xffffaaabu, 0xb9feffffu"));
    assert!(bls.contains("0x1a0111eau);"));
    assert!(bls.contains("const FR_P = Big(0x00000001u, 0xffffffffu"));
    assert!(bls.contains("0x73eda753u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u);"));
    assert!(
        bls.contains("fn fr_from_host("),
        "scalars of 8 words in 12-word integers"
    );
    assert!(
        bls.contains("alias Fq = array<u32, 13>;"),
        "Wide64: 13 limbs of 30 bits"
    );
}

#[test]
fn g2_msm_shaders_are_over_fq2_with_g1s_glv_split() {
    for (group, words, quads) in [(GroupId::Bn254G2, 16, 4), (GroupId::Bls12381G2, 24, 6)] {
        for path in [MulPath::Wide64, MulPath::Portable32] {
            let src = source_for(group, ShaderKind::Msm, path, Unroll::Compact, Fq32::Small);
            assert!(src.contains(&format!("alias Fq2Words = array<u32, {words}>;")));
            assert!(src.contains(&format!("const FQ2_VEC4S: u32 = {quads}u;")));
            assert!(src.contains(
                "fn load_base_words(i: u32) -> BaseWords {\n    let o = 2u * FQ2_VEC4S * i;"
            ));
            assert!(src.contains("struct BaseWords {\n    x: Fq2Words,\n    y: Fq2Words,\n}"));
            assert!(src.contains("fn xyzz_madd(p: Xyzz, a: Affine) -> Xyzz"));
            assert!(src.contains("struct Affine {\n    x: Fq2,\n    y: Fq2,\n}"));
            assert!(src.contains("fn fq2_curve_b() -> Fq2"));
            // G1's split of the same curve (same r, lambda and basis).
            let g1 = match group {
                GroupId::Bn254G2 => GroupId::Bn254G1,
                _ => GroupId::Bls12381G1,
            };
            let g1_src = source_for(g1, ShaderKind::Msm, path, Unroll::Compact, Fq32::Small);
            let split = |s: &str| {
                s[s.find("const GLV_G1").expect("GLV constants")..][..s
                    [s.find("const GLV_G1").unwrap()..]
                    .find("fn glv_k1")
                    .unwrap()]
                    .to_string()
            };
            assert_eq!(split(&src), split(&g1_src));
            assert!(src.contains("fn glv_split(k: Big) -> GlvSplit"));
            let check = source_for(
                group,
                ShaderKind::CheckBases,
                path,
                Unroll::Compact,
                Fq32::Small,
            );
            assert!(check.contains("fn check_base(i: u32) -> Fq2Words"));
            let expand = source_for(
                group,
                ShaderKind::ExpandBases,
                path,
                Unroll::Compact,
                Fq32::Small,
            );
            assert!(expand.contains("fn glv_image_x(x: Fq2Words) -> Fq2Words"));
            // G2's point formulas run on the register machine in every build.
            assert!(src.contains("fn tape_point_op("), "{group} Compact");
            let rolled = source_for(group, ShaderKind::Msm, path, Unroll::Rolled, Fq32::Small);
            assert!(rolled.contains("fn tape_point_op("), "{group} Rolled");
            // Fq2's wide products by Karatsuba on Wide64 (29-bit limbs); BN254 G1's MSM
            // keeps the schoolbook one, BLS12-381 G1's (30-bit limbs) has none: its a b - c d
            // is two Montgomery products. The Karatsuba product forms the half-sums of its
            // operands' limbs first.
            let karatsuba = "let sa0 = a[0] + a[";
            if path == MulPath::Wide64 {
                assert!(
                    src.contains(karatsuba) && rolled.contains(karatsuba),
                    "{group}"
                );
                assert!(!g1_src.contains(karatsuba));
                assert_eq!(
                    g1_src.contains("fn fq_mul_wide("),
                    g1 == GroupId::Bn254G1,
                    "{g1}"
                );
                assert_eq!(
                    g1_src.contains("return fq_sub(fq_mul(a, b), fq_mul(c, d));"),
                    g1 == GroupId::Bls12381G1,
                    "{g1}"
                );
            } else {
                assert!(
                    !src.contains(karatsuba),
                    "{group}: Portable32 has no wide products"
                );
            }
        }
        assert!(ShaderKind::ExpandBases.exists_for(group));
        assert!(group.has_glv());
    }
    // G1's MSM shader has no Fq2; BN254 G1's formulas are written out, BLS12-381 G1's run
    // on the register machine.
    let g1 = source(ShaderKind::Msm, MulPath::Wide64);
    assert!(!g1.contains("struct Fq2") && !g1.contains("fn fq2_"));
    assert!(!g1.contains("fn tape_point_op("));
    let bls = bls12_381_g1_msm();
    assert!(bls.contains("fn tape_point_op(") && !bls.contains("struct Fq2"));
    assert!(g1.contains("fn glv_split(k: Big) -> GlvSplit"));
}

/// G2's endomorphism phi(x, y) = (beta x, y), beta from the group's spec (the square of
/// arkworks' G1 beta), is G1's lambda on G2 for both curves: the split G2 takes from G1.
#[test]
fn glv_images_of_g2_are_lambda_multiples() {
    use ark_ec::scalar_mul::glv::GLVConfig;
    use ark_ec::{AffineRepr, CurveGroup};
    use wgpu_msm::Group;
    macro_rules! check {
        ($g1:ty, $g2:ty, $fr:ty) => {{
            let spec = <$g2 as Group>::ID.spec();
            let beta = <$g1 as Group>::element_from_words(&spec.glv.as_ref().expect("GLV").beta);
            for k in [1u64, 7, 123_456_789] {
                let p = (ark_ec::short_weierstrass::Affine::<$g2>::generator() * <$fr>::from(k))
                    .into_affine();
                let mut image = p;
                image.x.c0 *= beta;
                image.x.c1 *= beta;
                let want = (p * <$g1 as GLVConfig>::LAMBDA).into_affine();
                assert_eq!(
                    image,
                    want,
                    "{}: phi(P) != lambda P, P = {k} G",
                    <$g2 as Group>::ID
                );
            }
        }};
    }
    check!(ark_bn254::g1::Config, ark_bn254::g2::Config, ark_bn254::Fr);
    check!(
        ark_bls12_381::g1::Config,
        ark_bls12_381::g2::Config,
        ark_bls12_381::Fr
    );
}

/// BLS12-381 G1's Wide64 MSM shader as a hardware GPU builds it.
fn bls12_381_g1_msm() -> String {
    source_for(
        GroupId::Bls12381G1,
        ShaderKind::Msm,
        MulPath::Wide64,
        Unroll::Compact,
        Fq32::Small,
    )
}
