//! [`Group`] for each supported arkworks configuration: one macro, the parameters
//! naming the crate's field configurations.

use super::group::{join_words, split_words};
use super::{sealed::Sealed, FieldSpec, GlvSpec, Group, GroupId, GroupSpec};
use ark_ec::short_weierstrass::SWCurveConfig;

macro_rules! group {
    ($cfg:ty, $id:expr, $krate:literal, $fq:ty, $n:literal, $fr:ty, $bits:literal, $g2:ty) => {
        impl Sealed for $cfg {}

        impl Group for $cfg {
            const ID: GroupId = $id;
            const FQ_WORDS: usize = 2 * $n;
            const DEGREE: usize = 1;
            const SCALAR_WORDS: usize = 8;
            const SCALAR_BITS: u32 = $bits;

            #[inline]
            fn element_to_words(x: &Self::BaseField, out: &mut [u32]) {
                split_words(&x.0 .0, out);
            }

            #[inline]
            fn element_from_words(w: &[u32]) -> Self::BaseField {
                ark_ff::Fp(
                    ark_ff::BigInt(join_words::<$n>(w)),
                    core::marker::PhantomData,
                )
            }

            #[inline]
            fn scalar_to_words(s: &Self::ScalarField, out: &mut [u32]) {
                split_words(&s.0 .0, out);
            }

            fn spec() -> GroupSpec {
                let mut b = vec![0u32; Self::FQ_WORDS];
                Self::element_to_words(&<$cfg as SWCurveConfig>::COEFF_B, &mut b);
                let mut g2_b = vec![0u32; 2 * Self::FQ_WORDS];
                <$g2 as Group>::element_to_words(&<$g2 as SWCurveConfig>::COEFF_B, &mut g2_b);
                GroupSpec {
                    id: $id,
                    source: $krate,
                    degree: 1,
                    fq: FieldSpec::of::<$fq, $n>(),
                    fr: FieldSpec::of::<$fr, 4>(),
                    b,
                    g2_b,
                    glv: Some(GlvSpec::of::<$cfg>()),
                }
            }
        }
    };
}

/// G2 of a curve whose G1 is `$g1`: the same fields, the base field Fq2 (c0, c1 each
/// in `$g1`'s Fq words), and G1's GLV split with G2's endomorphism
/// ([`GlvSpec::of_g2_over`]).
macro_rules! group2 {
    ($cfg:ty, $id:expr, $g1:ty, $n:literal) => {
        impl Sealed for $cfg {}

        impl Group for $cfg {
            const ID: GroupId = $id;
            const FQ_WORDS: usize = <$g1 as Group>::FQ_WORDS;
            const DEGREE: usize = 2;
            const SCALAR_WORDS: usize = <$g1 as Group>::SCALAR_WORDS;
            const SCALAR_BITS: u32 = <$g1 as Group>::SCALAR_BITS;

            #[inline]
            fn element_to_words(x: &Self::BaseField, out: &mut [u32]) {
                let (c0, c1) = out.split_at_mut(Self::FQ_WORDS);
                <$g1 as Group>::element_to_words(&x.c0, c0);
                <$g1 as Group>::element_to_words(&x.c1, c1);
            }

            #[inline]
            fn element_from_words(w: &[u32]) -> Self::BaseField {
                let (c0, c1) = w.split_at(Self::FQ_WORDS);
                ark_ff::QuadExtField::new(
                    <$g1 as Group>::element_from_words(c0),
                    <$g1 as Group>::element_from_words(c1),
                )
            }

            #[inline]
            fn scalar_to_words(s: &Self::ScalarField, out: &mut [u32]) {
                <$g1 as Group>::scalar_to_words(s, out);
            }

            fn spec() -> GroupSpec {
                // The curve's prelude (both fields, b of G1 and of G2) with this group's
                // degree and endomorphism.
                GroupSpec {
                    id: $id,
                    degree: 2,
                    glv: Some(GlvSpec::of_g2_over::<$g1>()),
                    ..<$g1 as Group>::spec()
                }
            }
        }
    };
}

group!(
    ark_bn254::g1::Config,
    GroupId::Bn254G1,
    "ark-bn254",
    ark_bn254::FqConfig,
    4,
    ark_bn254::FrConfig,
    254,
    ark_bn254::g2::Config
);
group!(
    ark_bls12_381::g1::Config,
    GroupId::Bls12381G1,
    "ark-bls12-381",
    ark_bls12_381::FqConfig,
    6,
    ark_bls12_381::FrConfig,
    255,
    ark_bls12_381::g2::Config
);
group2!(
    ark_bn254::g2::Config,
    GroupId::Bn254G2,
    ark_bn254::g1::Config,
    4
);
group2!(
    ark_bls12_381::g2::Config,
    GroupId::Bls12381G2,
    ark_bls12_381::g1::Config,
    6
);

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::{PrimeField, UniformRand};

    fn round_trip<C: Group>() {
        let mut rng = ark_std::test_rng();
        let mut w = vec![0u32; C::ELEMENT_WORDS];
        for _ in 0..50 {
            let x = C::BaseField::rand(&mut rng);
            C::element_to_words(&x, &mut w);
            assert_eq!(C::element_from_words(&w), x);
        }
        let spec = C::spec();
        assert_eq!(spec.fq.words() as usize, C::FQ_WORDS);
        assert_eq!(spec.degree as usize, C::DEGREE);
        assert_eq!(C::ID.element_words() as usize, C::ELEMENT_WORDS);
        assert_eq!(
            <C::ScalarField as PrimeField>::MODULUS_BIT_SIZE,
            C::SCALAR_BITS
        );
        assert!(C::COEFF_A == C::BaseField::from(0u64), "a = 0");
    }

    #[test]
    fn words_round_trip() {
        round_trip::<ark_bn254::g1::Config>();
        round_trip::<ark_bls12_381::g1::Config>();
        round_trip::<ark_bn254::g2::Config>();
        round_trip::<ark_bls12_381::g2::Config>();
    }

    #[test]
    fn g2_words_are_c0_then_c1() {
        let x = ark_bn254::Fq2::new(ark_bn254::Fq::from(3u64), ark_bn254::Fq::from(5u64));
        let mut w = [0u32; 16];
        ark_bn254::g2::Config::element_to_words(&x, &mut w);
        let mut c = [0u32; 8];
        ark_bn254::g1::Config::element_to_words(&x.c0, &mut c);
        assert_eq!(w[..8], c);
        ark_bn254::g1::Config::element_to_words(&x.c1, &mut c);
        assert_eq!(w[8..], c);
    }
}
