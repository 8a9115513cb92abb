//! The sealed trait of a supported group: what the host needs to move its values to
//! and from the device, and where the shaders' constants come from.

use super::{sealed::Sealed, GroupId, GroupSpec};
use ark_ec::short_weierstrass::SWCurveConfig;

/// A short-Weierstrass group (a = 0) the MSM supports, implemented on its arkworks
/// configuration (`ark_bn254::g1::Config`, `ark_bn254::g2::Config`,
/// `ark_bls12_381::g1::Config`, `ark_bls12_381::g2::Config`). Sealed: the shaders and
/// tuning exist only for the groups this crate implements it for.
///
/// On the device an element of the prime field Fq is [`Group::FQ_WORDS`] 32-bit words
/// of its Montgomery form (arkworks' in-memory form); an element of the group's base
/// field is [`Group::DEGREE`] of those, [`Group::ELEMENT_WORDS`] words (G1: Fq itself;
/// G2: Fq2 = Fq\[u\] / (u^2 + 1), c0 then c1). A scalar is [`Group::SCALAR_WORDS`]
/// words of its Montgomery form, an affine base both coordinates (infinity as (0, 0),
/// as arkworks 0.6 stores it for these groups).
///
/// Bases are checked to be on the curve on the device (a base off it is
/// [`Error::PointNotOnCurve`](crate::Error::PointNotOnCurve)); membership of the
/// prime-order subgroup is not checked there (BLS12-381 G1 and both G2 groups have
/// cofactors): arkworks' checked constructors and deserialisation guarantee it.
pub trait Group: SWCurveConfig + Sealed {
    /// This group as a value.
    const ID: GroupId;
    /// 32-bit words of an element of the prime field Fq (8 for BN254's Fq, 12 for
    /// BLS12-381's).
    const FQ_WORDS: usize;
    /// Degree of the group's base field over Fq: 1 for G1 (Fq), 2 for G2 (Fq2).
    const DEGREE: usize;
    /// 32-bit words of an element of the group's base field (`DEGREE * FQ_WORDS`).
    const ELEMENT_WORDS: usize = Self::DEGREE * Self::FQ_WORDS;
    /// 32-bit words of a scalar (8 for both scalar fields).
    const SCALAR_WORDS: usize;
    /// Bits of the scalar field's modulus (254 for BN254, 255 for BLS12-381).
    const SCALAR_BITS: u32;

    /// Writes `x`'s Montgomery form into `out` (`ELEMENT_WORDS` words: each Fq
    /// coefficient, c0 first, least significant word first).
    fn element_to_words(x: &Self::BaseField, out: &mut [u32]);
    /// The element whose Montgomery form is `w` (`ELEMENT_WORDS` words as
    /// [`Group::element_to_words`] writes them, each coefficient below the modulus;
    /// not reduced).
    fn element_from_words(w: &[u32]) -> Self::BaseField;
    /// Writes `s`'s Montgomery form into `out` (`SCALAR_WORDS` words).
    fn scalar_to_words(s: &Self::ScalarField, out: &mut [u32]);
    /// Every constant the shaders of this group are generated from.
    fn spec() -> GroupSpec;
}

/// Splits 64-bit limbs into `out`'s 32-bit words, least significant first.
pub(crate) fn split_words(limbs: &[u64], out: &mut [u32]) {
    for (w, d) in limbs.iter().zip(out.chunks_exact_mut(2)) {
        d[0] = *w as u32;
        d[1] = (*w >> 32) as u32;
    }
}

/// Joins 32-bit words into 64-bit limbs, least significant first.
pub(crate) fn join_words<const N: usize>(w: &[u32]) -> [u64; N] {
    let mut limbs = [0u64; N];
    for (i, l) in limbs.iter_mut().enumerate() {
        *l = u64::from(w[2 * i]) | (u64::from(w[2 * i + 1]) << 32);
    }
    limbs
}
