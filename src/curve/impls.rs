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
            const SCALAR_WORDS: usize = 8;
            const SCALAR_BITS: u32 = $bits;

            #[inline]
            fn fq_to_words(x: &Self::BaseField, out: &mut [u32]) {
                split_words(&x.0 .0, out);
            }

            #[inline]
            fn fq_from_words(w: &[u32]) -> Self::BaseField {
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
                Self::fq_to_words(&<$cfg as SWCurveConfig>::COEFF_B, &mut b);
                let b2 = <$g2 as SWCurveConfig>::COEFF_B;
                let mut g2_b = vec![0u32; 2 * Self::FQ_WORDS];
                Self::fq_to_words(&b2.c0, &mut g2_b[..Self::FQ_WORDS]);
                Self::fq_to_words(&b2.c1, &mut g2_b[Self::FQ_WORDS..]);
                GroupSpec {
                    id: $id,
                    source: $krate,
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

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::{PrimeField, UniformRand};

    fn round_trip<C: Group>() {
        let mut rng = ark_std::test_rng();
        let mut w = vec![0u32; C::FQ_WORDS];
        for _ in 0..50 {
            let x = C::BaseField::rand(&mut rng);
            C::fq_to_words(&x, &mut w);
            assert_eq!(C::fq_from_words(&w), x);
        }
        let spec = C::spec();
        assert_eq!(spec.fq.words() as usize, C::FQ_WORDS);
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
    }
}
