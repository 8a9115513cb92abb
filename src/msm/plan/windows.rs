//! Splitting an MSM by windows on the host side: the scalars whose plain MSM equals the
//! partial sum a device computes for a range of windows ([`crate::config::MsmConfig::windows`]),
//! so that CPU workers and tests can take part in (or check) a split by windows.

use crate::msm::plan::window_count;
use ark_bn254::Fr;
use ark_ff::{BigInteger, Field, PrimeField};
use std::ops::Range;

/// Per scalar, the part of it that windows `windows` of `c` bits stand for: with the
/// signed digits `d_w` the device uses (`s = sum_w d_w 2^(c*w)`), the scalar
/// `sum_{w in windows} d_w 2^(c*w)` (mod r). An MSM over these scalars equals the
/// device's MSM of the original scalars restricted to `windows`; the parts of disjoint
/// ranges covering `0..ceil(255 / c)` add up to the scalar.
///
/// A range beyond the last window is clipped to it.
pub fn window_scalars(scalars: &[Fr], c: u32, windows: Range<u32>) -> Vec<Fr> {
    let all = window_count(c);
    let (a, b) = (windows.start.min(all), windows.end.min(all));
    let pow = |k: u32| Fr::from(2u64).pow([u64::from(c * k)]);
    let (two_a, two_b) = (pow(a), pow(b));
    scalars
        .iter()
        .map(|s| {
            if a >= b {
                return Fr::from(0u64);
            }
            let bits = s.into_bigint().to_bits_le();
            // lo(k) = sum_{w < k} d_w 2^(c*w) = (s mod 2^(c*k)) - carry_k * 2^(c*k).
            let low = |k: u32| -> Fr {
                let n = (c * k) as usize;
                let bytes = ark_ff::BigInt::<4>::from_bits_le(&bits[..n.min(bits.len())]);
                Fr::from_le_bytes_mod_order(&bytes.to_bytes_le())
            };
            let (carry_a, carry_b) = carries(&bits, c, a, b);
            let lo_a = low(a) - if carry_a { two_a } else { Fr::from(0u64) };
            let lo_b = low(b) - if carry_b { two_b } else { Fr::from(0u64) };
            lo_b - lo_a
        })
        .collect()
}

/// The signed-digit carries into windows `a` and `b` (as the device's decomposition
/// produces them: a digit above 2^(c-1) becomes digit - 2^c and carries one).
fn carries(bits: &[bool], c: u32, a: u32, b: u32) -> (bool, bool) {
    let half = 1u64 << (c - 1);
    let (mut carry, mut at_a) = (0u64, false);
    for w in 0..b {
        if w == a {
            at_a = carry == 1;
        }
        let v: u64 = (0..c as usize)
            .map(|j| (w * c) as usize + j)
            .filter(|&i| bits.get(i).copied().unwrap_or(false))
            .map(|i| 1u64 << (i - (w * c) as usize))
            .sum();
        let d = v + carry;
        carry = u64::from(d > half);
    }
    (at_a, carry == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::{G1Affine, G1Projective};
    use ark_ec::{CurveGroup, VariableBaseMSM};
    use ark_std::UniformRand;

    #[test]
    fn window_parts_add_up_to_the_scalar() {
        let mut rng = ark_std::test_rng();
        let mut s: Vec<Fr> = (0..200).map(|_| Fr::rand(&mut rng)).collect();
        s.extend([Fr::from(0u64), -Fr::from(1u64), Fr::from(1u64)]);
        for c in [2, 5, 8, 13, 16, 20] {
            let all = window_count(c);
            for cut in [1, all / 2, all - 1] {
                let lo = window_scalars(&s, c, 0..cut);
                let hi = window_scalars(&s, c, cut..all);
                for i in 0..s.len() {
                    assert_eq!(lo[i] + hi[i], s[i], "c={c} cut={cut} i={i}");
                }
            }
            assert_eq!(window_scalars(&s, c, 0..all), s, "all windows, c={c}");
        }
    }

    #[test]
    fn window_msm_parts_add_up() {
        let mut rng = ark_std::test_rng();
        let bases: Vec<G1Affine> = (0..64)
            .map(|_| G1Projective::rand(&mut rng).into_affine())
            .collect();
        let s: Vec<Fr> = (0..64).map(|_| Fr::rand(&mut rng)).collect();
        let msm = |sc: &[Fr]| G1Projective::msm(&bases, sc).unwrap();
        let parts = [0..3, 3..10, 10..16];
        let sum: G1Projective = parts
            .iter()
            .map(|r| msm(&window_scalars(&s, 16, r.clone())))
            .sum();
        assert_eq!(sum, msm(&s));
    }
}
