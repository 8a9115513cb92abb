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
/// Words of one BN254 XYZZ point (a group's: `4 * C::ELEMENT_WORDS`).
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

/// sum over w of 2^(c*w) * `window_sums[w]`, by Horner's rule from the top window.
pub fn combine_windows<C: Group>(window_sums: &[Projective<C>], c: u32) -> Projective<C> {
    let mut acc = Projective::<C>::zero();
    for s in window_sums.iter().rev() {
        double_times(&mut acc, c);
        acc += s;
    }
    acc
}

/// sum over w of 2^(o_w) * S_w, with o_w the sum of `width(v)` over the windows v below
/// w and S_w = `x[w]` + 2^k1 * `v[w]` + 2^k2 * `y[w]` + 2^k3 * `e[w]` for [x, v, y, e] =
/// `sums` (of equal length) and (k1, k2, k3) = `weights`: the device's reduction leaves
/// each window's weights to the host. Horner's rule from the top window (acc times
/// 2^width(w), plus S_w); where every weight is at most 2^width(w) (every window of more
/// buckets than a reduction workgroup has lanes), each window's doublings are split around
/// its terms, heaviest first (acc = 2^k1 (2^(k2-k1) (2^(b-k2) acc + y) + v) + x with e
/// zero and b = width(w)), so the weights cost no doubling more than [`combine_windows`]
/// does; narrower windows double their terms on their own.
pub fn combine_window_sums<C: Group>(
    sums: [&[Projective<C>]; 4],
    width: impl Fn(usize) -> u32,
    (k1, k2, k3): (u32, u32, u32),
) -> Projective<C> {
    let [x, v, y, e] = sums;
    assert!(x.len() == v.len() && v.len() == y.len() && y.len() == e.len());
    let mut acc = Projective::<C>::zero();
    for w in (0..x.len()).rev() {
        let b = width(w);
        let mut terms = [(&v[w], k1), (&y[w], k2), (&e[w], k3)];
        terms.sort_by_key(|t| std::cmp::Reverse(t.1));
        if terms[0].1 <= b {
            let mut at = b;
            for (part, k) in terms {
                double_times(&mut acc, at - k);
                acc += part;
                at = k;
            }
            double_times(&mut acc, at);
        } else {
            double_times(&mut acc, b);
            for (part, k) in terms {
                let mut scaled = *part;
                double_times(&mut scaled, k);
                acc += scaled;
            }
        }
        acc += &x[w];
    }
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
        let sums = [g, g.double(), G1Projective::zero()];
        // 1 + 2 * 2^4 = 33
        assert_eq!(combine_windows(&sums, 4), g * Fr::from(33u64));
        // The same windows in four parts: S_w = x + 2^k1 v + 2^k2 y + 2^k3 e, with
        // weights within and beyond the window's 4 bits, in any order.
        let part = |base: u64| -> Vec<G1Projective> {
            (0..sums.len())
                .map(|i| g * Fr::from(base + i as u64))
                .collect()
        };
        let (vs, ys, es) = (part(5), part(11), part(17));
        // Windows of widths 4, 4, 4 (at bits 0, 4, 8) and 4, 3, 3 (at 0, 4, 7), with a third
        // window sum of 3g: 1 + 2 * 2^4 + 3 * 2^8 and 1 + 2 * 2^4 + 3 * 2^7.
        let sums = [g, g.double(), g * Fr::from(3u64)];
        for (widths, expected) in [([4u32, 4, 4], 801u64), ([4, 3, 3], 417)] {
            for (k1, k2, k3) in [
                (0u32, 0u32, 0u32),
                (0, 2, 3),
                (1, 4, 2),
                (2, 6, 4),
                (3, 3, 3),
                (1, 2, 7),
            ] {
                let w = |k: u32| Fr::from(1u64 << k);
                let xs: Vec<G1Projective> = (0..sums.len())
                    .map(|i| sums[i] - vs[i] * w(k1) - ys[i] * w(k2) - es[i] * w(k3))
                    .collect();
                assert_eq!(
                    combine_window_sums([&xs, &vs, &ys, &es], |i| widths[i], (k1, k2, k3)),
                    g * Fr::from(expected),
                    "widths {widths:?}, k = {k1}, {k2}, {k3}"
                );
            }
        }
    }
}
