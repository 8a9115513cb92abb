//! The BLS12-381 G1 CUDA parity vectors (tests/data/bls12-381-g1-*, from sppark on an
//! H200; tests/data/README.md gives the format): bases, scalars and expected results.

use super::splitmix64;
use ark_bls12_381::{Fq, Fr, G1Affine};
use ark_ff::{BigInt, PrimeField};

/// The bases file (65,536 points, 96 bytes each), embedded.
pub const PARITY_BASES: &[u8] = include_bytes!("../../tests/data/bls12-381-g1-bases-65536.bin");
/// The results (`logn x y`, canonical big-endian hex, 96 digits each).
pub const PARITY_RESULTS: &str = include_str!("../../tests/data/bls12-381-g1-results.txt");

/// Scalar `i` of the vectors: the BN254 vectors' words, masked to 255 bits (254 where
/// that is still not below r).
pub fn parity_scalar(i: u64) -> Fr {
    let mut w = [0u64; 4];
    for (j, x) in w.iter_mut().enumerate() {
        *x = splitmix64((4 * i + j as u64) ^ super::PARITY_SEED);
    }
    w[3] &= 0x7fff_ffff_ffff_ffff;
    if BigInt(w) >= Fr::MODULUS {
        w[3] &= 0x3fff_ffff_ffff_ffff;
    }
    Fr::from_bigint(BigInt(w)).expect("below the modulus by construction")
}

/// The vectors' bases (96 bytes each: x, y as six little-endian u64 Montgomery limbs).
///
/// # Panics
/// If `bytes` is not a multiple of 96 bytes or holds a point off the curve.
pub fn parity_bases(bytes: &[u8]) -> Vec<G1Affine> {
    assert_eq!(bytes.len() % 96, 0, "bases file must hold 96-byte points");
    bytes
        .chunks_exact(96)
        .map(|c| {
            let limb =
                |k: usize| u64::from_le_bytes(c[8 * k..8 * k + 8].try_into().expect("8 bytes"));
            let fq = |o: usize| -> Fq {
                ark_ff::Fp(
                    BigInt([0, 1, 2, 3, 4, 5].map(|k| limb(o + k))),
                    core::marker::PhantomData,
                )
            };
            let p = G1Affine::new_unchecked(fq(0), fq(6));
            assert!(p.is_on_curve(), "parity base off the curve");
            p
        })
        .collect()
}

/// The parity inputs of size `n`: base i is `table[i mod len]`, scalar i as above.
pub fn parity_inputs(table: &[G1Affine], n: usize) -> (Vec<G1Affine>, Vec<Fr>) {
    let bases = (0..n).map(|i| table[i % table.len()]).collect();
    let scalars = (0..n as u64).map(parity_scalar).collect();
    (bases, scalars)
}

/// The expected affine result of the parity MSM of size 2^logn, if the vectors have it.
pub fn parity_expected(logn: u32) -> Option<G1Affine> {
    PARITY_RESULTS.lines().find_map(|line| {
        let mut it = line.split_whitespace();
        let lg: u32 = it.next()?.parse().ok()?;
        if lg != logn {
            return None;
        }
        let x = fq_from_hex(it.next()?)?;
        let y = fq_from_hex(it.next()?)?;
        Some(G1Affine::new_unchecked(x, y))
    })
}

/// Sizes (log2) the vectors cover.
pub fn parity_sizes() -> Vec<u32> {
    PARITY_RESULTS
        .lines()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect()
}

fn fq_from_hex(h: &str) -> Option<Fq> {
    if h.len() != 96 {
        return None;
    }
    let mut limbs = [0u64; 6];
    for (k, limb) in limbs.iter_mut().enumerate() {
        let lo = 96 - 16 * (k + 1);
        *limb = u64::from_str_radix(&h[lo..lo + 16], 16).ok()?;
    }
    Fq::from_bigint(BigInt(limbs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ec::{CurveGroup, VariableBaseMSM};

    #[test]
    fn vectors_decode_and_2_10_matches_arkworks() {
        let table = parity_bases(PARITY_BASES);
        assert_eq!(table.len(), 65536);
        assert!(table[..16]
            .iter()
            .all(|p| p.is_in_correct_subgroup_assuming_on_curve()));
        assert!(parity_sizes().contains(&10) && parity_sizes().contains(&16));
        let (b, s) = parity_inputs(&table, 1 << 10);
        let want = parity_expected(10).expect("2^10 vector");
        assert!(want.is_on_curve());
        let got = ark_bls12_381::G1Projective::msm(&b, &s)
            .unwrap()
            .into_affine();
        assert_eq!(got, want);
    }
}
