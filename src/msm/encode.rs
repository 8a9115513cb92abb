//! Host-side layout: arkworks values to device words and back, and the final window
//! combination. Device layout = arkworks' Montgomery limbs split into 32-bit words.

use crate::curve::Group;
use ark_bn254::{G1Affine, G1Projective};
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ec::AdditiveGroup as _;
use ark_ec::AffineRepr as _;
use ark_ff::{BigInt, Field, Zero};

/// Words of one BN254 affine base (a group's: `2 * C::ELEMENT_WORDS`).
pub const BASE_WORDS: usize = 16;
/// Words of one scalar (a group's: `C::SCALAR_WORDS`).
pub const SCALAR_WORDS: usize = 8;
/// Words of one BN254 XYZZ point as the host reads it (a group's: `4 * C::ELEMENT_WORDS`;
/// on the device a stored point takes [`GroupId::point_bytes`](crate::GroupId::point_bytes),
/// the window sums the host reads these words at its start).
pub const POINT_WORDS: usize = 32;

#[cfg(test)]
fn push_fq(dst: &mut [u32], f: &ark_bn254::Fq) {
    for (i, w) in f.0 .0.iter().enumerate() {
        dst[2 * i] = *w as u32;
        dst[2 * i + 1] = (*w >> 32) as u32;
    }
}

/// Writes `bases` into `dst` (`2 * C::ELEMENT_WORDS` words each): Montgomery x, y; infinity
/// as (0, 0). (arkworks 0.6 stores infinity of the supported groups as (0, 0) itself,
/// so no finite point can collide with the encoding; off-curve points are caught on the
/// device.)
pub fn write_bases<C: Group>(dst: &mut [u32], bases: &[Affine<C>]) {
    let fw = C::ELEMENT_WORDS;
    for (p, d) in bases.iter().zip(dst.chunks_exact_mut(2 * fw)) {
        if p.is_zero() {
            d.fill(0);
        } else {
            C::element_to_words(&p.x, &mut d[..fw]);
            C::element_to_words(&p.y, &mut d[fw..]);
        }
    }
}

/// Writes `scalars` (Montgomery form, as arkworks stores them) into `dst`,
/// `C::SCALAR_WORDS` words each.
pub fn write_scalars<C: Group>(dst: &mut [u32], scalars: &[C::ScalarField]) {
    for (s, d) in scalars.iter().zip(dst.chunks_exact_mut(C::SCALAR_WORDS)) {
        C::scalar_to_words(s, d);
    }
}

/// A BN254 XYZZ point (32 words) as an arkworks Jacobian point; see [`read_xyzz_in`].
pub fn read_xyzz(words: &[u32]) -> G1Projective {
    read_xyzz_in::<ark_bn254::g1::Config>(words)
}

/// An XYZZ point (`4 * C::ELEMENT_WORDS` words) as an arkworks Jacobian point, without
/// inversion: with ZZ^3 = ZZZ^2, (X ZZ^2, Y ZZZ^2, ZZZ) is the same point in Jacobian
/// coordinates.
pub fn read_xyzz_in<C: Group>(words: &[u32]) -> Projective<C> {
    let fw = C::ELEMENT_WORDS;
    let (x, y, zz, zzz) = (
        C::element_from_words(&words[0..fw]),
        C::element_from_words(&words[fw..2 * fw]),
        C::element_from_words(&words[2 * fw..3 * fw]),
        C::element_from_words(&words[3 * fw..4 * fw]),
    );
    if zz.is_zero() {
        return Projective::<C>::zero();
    }
    Projective::<C>::new_unchecked(x * zz.square(), y * zzz.square(), zzz)
}

/// Reads a BN254 affine point (16 words, (0,0) = infinity), as the test kernels write
/// them.
pub fn read_affine(words: &[u32]) -> G1Affine {
    read_affine_in::<ark_bn254::g1::Config>(words)
}

/// Reads an affine point (`2 * C::ELEMENT_WORDS` words, (0,0) = infinity).
pub fn read_affine_in<C: Group>(words: &[u32]) -> Affine<C> {
    let fw = C::ELEMENT_WORDS;
    let (x, y) = (
        C::element_from_words(&words[0..fw]),
        C::element_from_words(&words[fw..2 * fw]),
    );
    if x.is_zero() && y.is_zero() {
        return Affine::<C>::identity();
    }
    Affine::<C>::new_unchecked(x, y)
}

/// Words of a field element (any 4-limb arkworks Montgomery field).
pub fn field_words<P: ark_ff::FpConfig<4>>(f: &ark_ff::Fp<P, 4>) -> [u32; 8] {
    crate::shader::params::limbs32(&f.0)
}

/// A field element from its words (no reduction; the device keeps values < p).
pub fn field_from_words<P: ark_ff::FpConfig<4>>(w: &[u32]) -> ark_ff::Fp<P, 4> {
    let mut limbs = [0u64; 4];
    for (i, l) in limbs.iter_mut().enumerate() {
        *l = u64::from(w[2 * i]) | (u64::from(w[2 * i + 1]) << 32);
    }
    ark_ff::Fp(BigInt(limbs), core::marker::PhantomData)
}

/// sum of 2^k * p over `terms` (k, p), by Horner's rule from the heaviest term, so its
/// doublings number the largest k: an MSM's result from the points the device's
/// reduction leaves each window (`shader::stages::window_sum_weights`), each k its
/// weight in the window plus the window's offset in the scalar.
pub fn weighted_sum<C: Group>(
    terms: impl IntoIterator<Item = (u32, Projective<C>)>,
) -> Projective<C> {
    let mut terms: Vec<_> = terms.into_iter().collect();
    terms.sort_by_key(|t| std::cmp::Reverse(t.0));
    let mut acc = Projective::<C>::zero();
    let mut at = terms.first().map_or(0, |t| t.0);
    for (k, p) in terms {
        double_times(&mut acc, at - k);
        acc += p;
        at = k;
    }
    double_times(&mut acc, at);
    acc
}

/// p doubled `times` times.
fn double_times<C: Group>(p: &mut Projective<C>, times: u32) {
    for _ in 0..times {
        p.double_in_place();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::{Fq, Fr};
    use ark_ec::{CurveGroup, PrimeGroup};
    use ark_ff::UniformRand;

    #[test]
    fn xyzz_words_round_trip_through_jacobian() {
        let mut rng = ark_std::test_rng();
        let p = G1Affine::rand(&mut rng);
        let z = Fq::rand(&mut rng);
        let (zz, zzz) = (z.square(), z.square() * z);
        let mut w = [0u32; 32];
        push_fq(&mut w[0..8], &(p.x * zz));
        push_fq(&mut w[8..16], &(p.y * zzz));
        push_fq(&mut w[16..24], &zz);
        push_fq(&mut w[24..32], &zzz);
        assert_eq!(read_xyzz(&w).into_affine(), p);
        assert!(read_xyzz(&[0u32; 32]).is_zero());
    }

    #[test]
    fn windows_combine_by_powers_of_two() {
        let g = G1Projective::generator();
        // Window sums 1, 2 and 0 in windows of 4 bits: 1 + 2 * 2^4 = 33.
        let one = [(0, g), (4, g.double()), (8, G1Projective::zero())];
        assert_eq!(weighted_sum(one), g * Fr::from(33u64));
        // Windows as the reduction leaves them: S_w = T + sum_k 2^(shift + k) B_k, with
        // B_k the window's sum at bit k and T what is left, each term at its window's
        // offset, in windows of widths 4, 4, 4 (at bits 0, 4, 8) and 4, 3, 3 (at 0, 4,
        // 7), a third window sum of 3g: 1 + 2 * 2^4 + 3 * 2^8 and 1 + 2 * 2^4 + 3 * 2^7;
        // bit sums of 1 to 5 levels (from 4, a weight at or above a window's width), or
        // of 1 to 3 levels above 2^2 (segments of 4).
        let sums = [g, g.double(), g * Fr::from(3u64)];
        let shapes = (1..=5).map(|l| (l, 0)).chain((1..=3).map(|l| (l, 2)));
        for (widths, expected) in [([4u32, 4, 4], 801u64), ([4, 3, 3], 417)] {
            for (levels, shift) in shapes.clone() {
                let bit = |w: usize, k: u32| g * Fr::from(5 + 3 * w as u64 + 7 * u64::from(k));
                let terms = |w: usize| {
                    let offset: u32 = widths[..w].iter().sum();
                    let rest = (0..levels).fold(sums[w], |t, k| {
                        t - bit(w, k) * Fr::from(1u64 << (shift + k))
                    });
                    (0..levels)
                        .map(move |k| (offset + shift + k, bit(w, k)))
                        .chain([(offset, rest)])
                };
                assert_eq!(
                    weighted_sum((0..3).flat_map(terms)),
                    g * Fr::from(expected),
                    "widths {widths:?}, levels {levels}, shift {shift}"
                );
            }
        }
    }
}
