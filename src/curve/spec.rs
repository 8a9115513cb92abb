//! The constants of a group's shaders as plain data, read from arkworks: each field's
//! Montgomery constants (`MontConfig`), the curve's b, the GLV endomorphism and basis.

use super::{Group, GroupId};
use ark_ec::scalar_mul::glv::GLVConfig;
use ark_ff::{BigInteger, MontConfig};
use num_bigint::BigUint;

/// One Montgomery field: 64-bit limbs, least significant first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldSpec {
    /// The modulus p.
    pub modulus: Vec<u64>,
    /// R mod p, R = 2^(64 limbs) (1 in Montgomery form).
    pub r: Vec<u64>,
    /// R^2 mod p.
    pub r2: Vec<u64>,
    /// -p^-1 mod 2^64 (its low half is -p^-1 mod 2^32).
    pub inv: u64,
}

impl FieldSpec {
    /// The constants of arkworks' `MontConfig` `P` over `N` 64-bit limbs.
    pub fn of<P: MontConfig<N>, const N: usize>() -> FieldSpec {
        FieldSpec {
            modulus: P::MODULUS.0.to_vec(),
            r: P::R.0.to_vec(),
            r2: P::R2.0.to_vec(),
            inv: P::INV,
        }
    }

    /// 32-bit words of an element.
    pub fn words(&self) -> u32 {
        2 * self.modulus.len() as u32
    }

    /// The constants for Montgomery form over `words` 32-bit words (R = 2^(32 words)),
    /// at least [`FieldSpec::words`]: a field held in wider words than arkworks holds
    /// it (the scalar field in a shader whose big integers have the base field's
    /// width). The same constants when `words` is the field's own width.
    pub fn widened(&self, words: u32) -> FieldSpec {
        assert!(
            words >= self.words() && words.is_multiple_of(2),
            "{words} words"
        );
        if words == self.words() {
            return self.clone();
        }
        let limbs = (words / 2) as usize;
        let p = BigUint::from_slice(&to_u32(&self.modulus));
        let r = (BigUint::from(1u32) << (32 * words)) % &p;
        let r2 = (&r * &r) % &p;
        FieldSpec {
            modulus: padded(self.modulus.clone(), limbs),
            r: padded(r.to_u64_digits(), limbs),
            r2: padded(r2.to_u64_digits(), limbs),
            inv: self.inv,
        }
    }

    /// The modulus as an integer.
    pub fn modulus_int(&self) -> BigUint {
        BigUint::from_slice(&to_u32(&self.modulus))
    }
}

/// 64-bit limbs as 32-bit words.
fn to_u32(v: &[u64]) -> Vec<u32> {
    v.iter()
        .flat_map(|w| [*w as u32, (*w >> 32) as u32])
        .collect()
}

fn padded(mut v: Vec<u64>, limbs: usize) -> Vec<u64> {
    v.resize(limbs, 0);
    v
}

/// The GLV endomorphism phi(x, y) = (beta x, y) = lambda (x, y) and arkworks' basis
/// of the scalar decomposition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlvSpec {
    /// beta, Montgomery form, as 32-bit words.
    pub beta: Vec<u32>,
    /// (n11, n12, n21, n22) of arkworks' `SCALAR_DECOMP_COEFFS`: (non-negative,
    /// magnitude) each.
    pub basis: [(bool, BigUint); 4],
}

impl GlvSpec {
    /// The endomorphism and basis of arkworks' `GLVConfig` for `C`.
    pub fn of<C: Group + GLVConfig>() -> GlvSpec {
        let mut beta = vec![0u32; C::FQ_WORDS];
        C::element_to_words(&C::ENDO_COEFFS[0], &mut beta);
        GlvSpec {
            beta,
            basis: C::SCALAR_DECOMP_COEFFS
                .map(|(plus, v)| (plus, BigUint::from_bytes_le(&v.to_bytes_le()))),
        }
    }

    /// The endomorphism of G2 on the j = 0 twist of the curve whose G1 is `C`:
    /// phi(x, y) = (beta x, y) with beta in Fq, acting on G2 as G1's lambda when beta is
    /// the square of G1's (the other cube root of unity; checked for both curves by
    /// `glv_images_of_g2_are_lambda_multiples` in tests/shaders.rs and in
    /// docs/curves.md), so G2 takes G1's scalar split and basis unchanged.
    pub fn of_g2_over<C: Group + GLVConfig>() -> GlvSpec {
        let b = C::ENDO_COEFFS[0];
        let mut beta = vec![0u32; C::FQ_WORDS];
        C::element_to_words(&(b * b), &mut beta);
        GlvSpec {
            beta,
            ..GlvSpec::of::<C>()
        }
    }
}

/// Every constant the shaders of one group are generated from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupSpec {
    /// The group.
    pub id: GroupId,
    /// The arkworks crate the constants come from (named in the generated source).
    pub source: &'static str,
    /// Degree of the group's base field over Fq: 1 (G1, points over Fq) or 2 (G2,
    /// points over Fq2, see [`GroupSpec::g2_b`]).
    pub degree: u32,
    /// The base field.
    pub fq: FieldSpec,
    /// The scalar field.
    pub fr: FieldSpec,
    /// The coefficient b of the curve's G1 (over Fq), Montgomery form, as 32-bit words
    /// (a = 0 is asserted by the shader builder). Every shader of the curve declares it
    /// (`CURVE_B`), G2's too.
    pub b: Vec<u32>,
    /// The coefficient b of the curve's G2 (over Fq2 = Fq\[u\] / (u^2 + 1), a = 0):
    /// c0 then c1, Montgomery form, as 32-bit words (the curve formulas of G2's
    /// shaders, and the G2 test kernels of either group of the curve).
    pub g2_b: Vec<u32>,
    /// The GLV endomorphism, where the group has one.
    pub glv: Option<GlvSpec>,
}

impl GroupSpec {
    /// 32-bit words of the shaders' big integers (the base field's width).
    pub fn limbs(&self) -> u32 {
        self.fq.words()
    }

    /// The scalar field's modulus as an integer.
    pub fn scalar_modulus(&self) -> BigUint {
        BigUint::from_bytes_le(
            &self
                .fr
                .modulus
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widening_keeps_arkworks_at_its_width_and_scales_r() {
        let fr = FieldSpec::of::<ark_bls12_381::FrConfig, 4>();
        assert_eq!(fr.widened(8), fr);
        let w = fr.widened(12);
        let p = fr.modulus_int();
        let r = BigUint::from_slice(&to_u32(&w.r));
        assert_eq!(r, (BigUint::from(1u32) << 384u32) % &p);
        // The BN254 Fq constants agree with arkworks' R at its width.
        let fq = FieldSpec::of::<ark_bn254::FqConfig, 4>();
        let r = (BigUint::from(1u32) << 256u32) % fq.modulus_int();
        assert_eq!(padded(r.to_u64_digits(), 4), fq.r);
    }
}
