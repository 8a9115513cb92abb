//! The GLV endomorphism of a group for the shaders (G1 from its arkworks `GLVConfig`;
//! G2 with G1's basis and beta squared, `GlvSpec::of_g2_over`), through [`GroupSpec`]: phi(x, y) = (beta x, y) = lambda P, and the split of a scalar k into
//! k1 + lambda k2 (mod r) with |k1|, |k2| < 2^[`GLV_BITS`], which halves the windows
//! of an MSM (2n half-size scalars over the points and their images instead of n
//! full-size ones: the same additions, half the buckets to reduce).
//!
//! The split (shaders/glv.wgsl) is arkworks' `scalar_decomposition` with its two
//! divisions by r replaced by fixed-point products: q1 = round(k |n22| / r) and q2 =
//! round(k |n12| / r), each as (k g + 2^(s-1)) >> s with g = round(2^s |n| / r) and s the
//! width of the shader's big integers (256 for BN254, 384 for BLS12-381), then
//!   k1 = k - beta1 n11 - beta2 n21,  k2 = -beta1 n12 - beta2 n22,
//! with beta1 = sign(n22) q1 and beta2 = -sign(n12) q2 (arkworks' beta1 = round(k n22 /
//! r), beta2 = round(-k n12 / r)). Any integers beta1, beta2 give k1 + lambda k2 = k
//! (mod r), since both rows of the basis are in the kernel of (a, b) -> a + lambda b;
//! the rounding keeps |k1| <= 0.63 (|n11| + |n21|) and |k2| <= 0.63 (|n12| + |n22|)
//! (the fixed-point quotient is within 1/2 + k / 2^(s+1) of k |n| / r), below 2^127 for
//! both groups. [`split`] computes the same on the host, for the tests.

use crate::curve::{GroupId, GroupSpec};
use ark_bn254::Fr;
use ark_ec::scalar_mul::glv::GLVConfig;
use ark_ff::PrimeField;
use num_bigint::{BigInt as Int, BigUint, Sign};
use std::fmt::Write;

type Config = ark_bn254::g1::Config;

/// Bits that bound |k1| and |k2| (each < 2^GLV_BITS) for every supported group with
/// GLV (checked per group by the tests); signed c-bit windows over GLV_BITS + 1 bits
/// hold them.
pub const GLV_BITS: u32 = 127;

/// The basis of arkworks' decomposition: (n11, n12, n21, n22) as signed integers.
fn basis(spec: &GroupSpec) -> [Int; 4] {
    let glv = spec.glv.as_ref().expect("a group with GLV");
    glv.basis.clone().map(|(plus, v)| {
        let sign = if plus { Sign::Plus } else { Sign::Minus };
        Int::from_biguint(sign, v)
    })
}

/// Bits of the fixed-point reciprocals: the width of the shader's big integers.
fn shift(spec: &GroupSpec) -> u32 {
    32 * spec.limbs()
}

/// round(2^shift * |n| / r).
fn fixed_point(spec: &GroupSpec, n: &Int) -> BigUint {
    let r = spec.scalar_modulus();
    ((n.magnitude() << shift(spec)) + (&r >> 1u32)) / r
}

/// round(k * g / 2^shift), as the device computes it.
fn mul_round(spec: &GroupSpec, k: &BigUint, g: &BigUint) -> BigUint {
    let s = shift(spec);
    (k * g + (BigUint::from(1u32) << (s - 1))) >> s
}

/// The sign (+1 or -1) of a basis entry.
fn sign(n: &Int) -> i32 {
    if n.sign() == Sign::Minus {
        -1
    } else {
        1
    }
}

/// The signs e11, e21, e12, e22 with k1 = k + e11 q1 |n11| + e21 q2 |n21| and
/// k2 = e12 q1 |n12| + e22 q2 |n22| (q1, q2 >= 0; see the module docs).
fn term_signs(n: &[Int; 4]) -> [i32; 4] {
    let [s11, s12, s21, s22] = [sign(&n[0]), sign(&n[1]), sign(&n[2]), sign(&n[3])];
    [-s22 * s11, s12 * s21, -s22 * s12, s12 * s22]
}

/// The host's model of the device's split of a BN254 scalar `k` (< r); see
/// [`split_for`].
pub fn split(k: &BigUint) -> (bool, BigUint, bool, BigUint) {
    split_for(GroupId::Bn254G1, k)
}

/// The host's model of the device's split of `k` (< r) in `group`: (k1 negative,
/// |k1|, k2 negative, |k2|), with k = k1 + lambda k2 (mod r).
///
/// # Panics
/// If `group` has no GLV endomorphism.
pub fn split_for(group: GroupId, k: &BigUint) -> (bool, BigUint, bool, BigUint) {
    let spec = group.spec();
    let n = basis(spec);
    let e = term_signs(&n);
    let q1 = Int::from(mul_round(spec, k, &fixed_point(spec, &n[3])));
    let q2 = Int::from(mul_round(spec, k, &fixed_point(spec, &n[1])));
    let mag = |i: usize| Int::from(n[i].magnitude().clone());
    let k1 = Int::from(k.clone()) + e[0] * &q1 * mag(0) + e[1] * &q2 * mag(2);
    let k2 = e[2] * &q1 * mag(1) + e[3] * &q2 * mag(3);
    (
        k1.sign() == Sign::Minus,
        k1.magnitude().clone(),
        k2.sign() == Sign::Minus,
        k2.magnitude().clone(),
    )
}

/// `limbs` 32-bit words of a non-negative integer below 2^(32 limbs).
fn limbs(v: &BigUint, limbs: u32) -> Vec<u32> {
    let mut words = v.to_u32_digits();
    assert!(
        words.len() <= limbs as usize,
        "GLV constant above 2^(32 limbs)"
    );
    words.resize(limbs as usize, 0);
    words
}

fn wgsl_big(name: &str, v: &[u32]) -> String {
    let items: Vec<String> = v.iter().map(|x| format!("0x{x:08x}u")).collect();
    format!("const {name} = Big({});\n", items.join(", "))
}

/// The BN254 G1 [`beta_wgsl_for`].
pub fn beta_wgsl() -> String {
    beta_wgsl_for(GroupId::Bn254G1.spec())
}

/// The endomorphism's WGSL constant `GLV_BETA`: beta in Montgomery form, as bases are
/// stored (for `expand_bases.wgsl`).
///
/// # Panics
/// If the group has no GLV endomorphism.
pub fn beta_wgsl_for(spec: &GroupSpec) -> String {
    let glv = spec.glv.as_ref().expect("a group with GLV");
    wgsl_big("GLV_BETA", &glv.beta)
}

/// `glv_image_x`, the x of a base's image under the endomorphism, in storage words:
/// beta x over Fq (G1), or each coefficient of x times beta (G2, whose beta is in Fq).
/// Used by expand_bases.wgsl (whose storage words are `Fq2Words` in a G2 shader).
pub fn image_x_wgsl(g2: bool) -> &'static str {
    if g2 {
        "/// The x of a base's image under the endomorphism: (beta x0, beta x1).
fn glv_image_x(x: Fq2Words) -> Fq2Words {
    let v = fq2_unpack(x);
    let b = fq_unpack(GLV_BETA);
    return fq2_pack(Fq2(fq_mul(v.c0, b), fq_mul(v.c1, b)));
}
"
    } else {
        "/// The x of a base's image under the endomorphism: beta x.
fn glv_image_x(x: Big) -> Big {
    return fq_pack(fq_mul(fq_unpack(x), fq_unpack(GLV_BETA)));
}
"
    }
}

/// What msm_decompose.wgsl needs of glv.wgsl in the MSM shader of a group without GLV
/// (none of the supported groups): `GlvSplit` and a `glv_split` for its `LAYOUT_GLV`
/// branch, which such a group's passes never take (the host picks GLV only where
/// `GroupId::has_glv`).
pub const NO_GLV_WGSL: &str = "// No GLV for this group: LAYOUT_GLV passes never run.
struct GlvSplit {
    k1: Big,
    k2: Big,
    neg1: bool,
    neg2: bool,
}

/// k as its own first half (never called: see above).
fn glv_split(k: Big) -> GlvSplit {
    var zero: Big;
    return GlvSplit(k, zero, false, false);
}
";

/// The BN254 G1 [`wgsl_for`].
pub fn wgsl() -> String {
    wgsl_for(GroupId::Bn254G1.spec())
}

/// The split's WGSL constants and the two generated combinations of glv.wgsl:
/// `GLV_G1`, `GLV_G2` (the fixed-point reciprocals), `GLV_N11` ... `GLV_N22` (|n|), and
/// `glv_k1(k, q1, q2)`, `glv_k2(q1, q2)` with the basis's signs.
///
/// # Panics
/// If the group has no GLV endomorphism.
pub fn wgsl_for(spec: &GroupSpec) -> String {
    let n = basis(spec);
    let e = term_signs(&n);
    let w = spec.limbs();
    let mut s = format!(
        "// GLV constants, generated from {}'s GLVConfig.\n",
        spec.source
    );
    s += &wgsl_big("GLV_G1", &limbs(&fixed_point(spec, &n[3]), w));
    s += &wgsl_big("GLV_G2", &limbs(&fixed_point(spec, &n[1]), w));
    for (i, name) in ["N11", "N12", "N21", "N22"].iter().enumerate() {
        s += &wgsl_big(&format!("GLV_{name}"), &limbs(n[i].magnitude(), w));
    }
    let op = |e: i32| if e > 0 { "big_add" } else { "big_sub" };
    let bits = 32 * w;
    let _ = write!(
        s,
        "/// k1 = k {} q1 |n11| {} q2 |n21| (mod 2^{bits}).\n\
         fn glv_k1(k: Big, q1: Big, q2: Big) -> Big {{\n    \
         let a = {}(k, big_mul_lo(GLV_N11, q1)).v;\n    \
         return {}(a, big_mul_lo(GLV_N21, q2)).v;\n}}\n\
         /// k2 = {} q1 |n12| {} q2 |n22| (mod 2^{bits}).\n\
         fn glv_k2(q1: Big, q2: Big) -> Big {{\n    \
         var zero: Big;\n    \
         let a = {}(zero, big_mul_lo(GLV_N12, q1)).v;\n    \
         return {}(a, big_mul_lo(GLV_N22, q2)).v;\n}}\n",
        if e[0] > 0 { "+" } else { "-" },
        if e[1] > 0 { "+" } else { "-" },
        op(e[0]),
        op(e[1]),
        if e[2] > 0 { "+" } else { "-" },
        if e[3] > 0 { "+" } else { "-" },
        op(e[2]),
        op(e[3]),
    );
    s
}

/// Scalars at the edges of the split, for tests: 0, +-1, +-lambda and next to them,
/// +-2^127, 2^253, and scalars next to multiples of r / |n22| and r / |n12|, where the
/// fixed-point quotients round either way.
pub fn edge_scalars() -> Vec<Fr> {
    use ark_ff::Field;
    let lambda = Config::LAMBDA;
    let one = Fr::from(1u64);
    let mut ks = vec![
        Fr::from(0u64),
        one,
        -one,
        lambda,
        -lambda,
        lambda + one,
        lambda - one,
        Fr::from(2u64).pow([253u64]),
        Fr::from(2u64).pow([127u64]),
        -Fr::from(2u64).pow([127u64]),
    ];
    let spec = GroupId::Bn254G1.spec();
    let n = basis(spec);
    for i in [1usize, 3] {
        let step = spec.scalar_modulus() / n[i].magnitude();
        for m in [1u32, 2, 1000, 1 << 20] {
            let at = Fr::from_le_bytes_mod_order(&(&step * m).to_bytes_le());
            ks.extend([at - one, at, at + one]);
        }
    }
    ks
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::G1Affine;
    use ark_ec::{AffineRepr, CurveGroup};
    use ark_ff::{BigInteger, UniformRand};
    use ark_std::rand::{rngs::StdRng, SeedableRng};

    /// |k1|, |k2| of `k` as scalars, with their signs.
    fn split_fr(k: &Fr) -> ((bool, Fr), (bool, Fr)) {
        let (n1, k1, n2, k2) = split(&k.into_bigint().into());
        let fr = |v: BigUint| Fr::from_le_bytes_mod_order(&v.to_bytes_le());
        ((n1, fr(k1)), (n2, fr(k2)))
    }

    fn value(neg: bool, v: &Fr) -> Fr {
        if neg {
            -*v
        } else {
            *v
        }
    }

    fn check(k: Fr) {
        let ((n1, k1), (n2, k2)) = split_fr(&k);
        assert_eq!(
            value(n1, &k1) + Config::LAMBDA * value(n2, &k2),
            k,
            "k1 + lambda k2 != k for k = {k}"
        );
        for v in [k1, k2] {
            assert!(
                v.into_bigint().num_bits() <= GLV_BITS,
                "|k_i| = {v} above 2^{GLV_BITS} for k = {k}"
            );
        }
    }

    #[test]
    fn split_recombines_within_the_bound() {
        let seed = 0x61_76_5f_73;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut ks = edge_scalars();
        ks.extend((0..20_000).map(|_| Fr::rand(&mut rng)));
        for k in ks {
            check(k);
        }
    }

    #[test]
    fn bls12_381_split_recombines_within_the_bound() {
        use ark_bls12_381::Fr as F;
        type C = ark_bls12_381::g1::Config;
        let seed = 0x62_6c_73;
        let mut rng = StdRng::seed_from_u64(seed);
        let one = F::from(1u64);
        let mut ks = vec![
            F::from(0u64),
            one,
            -one,
            C::LAMBDA,
            -C::LAMBDA,
            C::LAMBDA + one,
        ];
        ks.extend((0..20_000).map(|_| F::rand(&mut rng)));
        for k in ks {
            let (n1, k1, n2, k2) = split_for(GroupId::Bls12381G1, &k.into_bigint().into());
            let part = |neg: bool, v: BigUint| {
                assert!(
                    v.bits() <= u64::from(GLV_BITS),
                    "seed {seed}: |k_i| = {v} for k = {k}"
                );
                let f = F::from_le_bytes_mod_order(&v.to_bytes_le());
                if neg {
                    -f
                } else {
                    f
                }
            };
            assert_eq!(part(n1, k1) + C::LAMBDA * part(n2, k2), k, "seed {seed}");
        }
    }

    #[test]
    fn endomorphism_is_lambda() {
        let g = G1Affine::generator();
        let phi = Config::endomorphism_affine;
        assert_eq!(phi(&g), (g * Config::LAMBDA).into_affine());
        assert!(phi(&G1Affine::zero()).is_zero());
    }

    #[test]
    fn constants_fit_and_name_every_term() {
        let src = beta_wgsl() + &wgsl();
        for name in [
            "GLV_BETA",
            "GLV_G1",
            "GLV_G2",
            "GLV_N11",
            "GLV_N12",
            "GLV_N21",
            "GLV_N22",
            "fn glv_k1",
            "fn glv_k2",
        ] {
            assert!(src.contains(name), "{name} missing");
        }
        let n = basis(GroupId::Bn254G1.spec());
        // The device multiplies q (< 2^128) by |n| into 256 bits without overflow.
        for v in &n {
            assert!(v.magnitude().bits() <= 128);
        }
    }
}
