//! Inputs for tests, benches and the CLI: seeded random bases and scalars, adversarial
//! cases, and the exact inputs of the CUDA parity vectors.

pub mod bls12_381;

use crate::curve::Group;
use ark_bn254::{Fr, G1Affine};
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ec::{CurveGroup, PrimeGroup};
use ark_ff::{BigInt, PrimeField, UniformRand};
use ark_std::rand::{rngs::StdRng, SeedableRng};

/// A deterministic RNG from a seed (print the seed on failure to reproduce a run).
pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// `n` random BN254 G1 bases; see [`random_bases_in`].
pub fn random_bases(n: usize, distinct: usize, seed: u64) -> Vec<G1Affine> {
    random_bases_in::<ark_bn254::g1::Config>(n, distinct, seed)
}

/// `n` random bases of group `C`. Uses `distinct` random points repeated cyclically,
/// built as multiples of the generator (so in the prime-order subgroup) in one batch
/// normalisation (fast for large n).
pub fn random_bases_in<C: Group>(n: usize, distinct: usize, seed: u64) -> Vec<Affine<C>> {
    let mut r = rng(seed);
    let k = distinct.clamp(1, n.max(1));
    let g = Projective::<C>::generator();
    let proj: Vec<Projective<C>> = (0..k).map(|_| g * C::ScalarField::rand(&mut r)).collect();
    let uniq = Projective::<C>::normalize_batch(&proj);
    (0..n).map(|i| uniq[i % k]).collect()
}

/// `n` uniformly random BN254 scalars; see [`random_scalars_in`].
pub fn random_scalars(n: usize, seed: u64) -> Vec<Fr> {
    random_scalars_in::<ark_bn254::g1::Config>(n, seed)
}

/// `n` uniformly random scalars of group `C`.
pub fn random_scalars_in<C: Group>(n: usize, seed: u64) -> Vec<C::ScalarField> {
    let mut r = rng(seed ^ 0x5eed_5ca1_a75e_ed00);
    (0..n).map(|_| C::ScalarField::rand(&mut r)).collect()
}

/// SplitMix64, as the CUDA parity vectors define it.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Seed of the CUDA parity vectors' scalars.
pub const PARITY_SEED: u64 = 0xA5A5_A5A5_DEAD_BEEF;

/// Scalar `i` of the CUDA parity vectors (see tests/data/README.md).
pub fn parity_scalar(i: u64) -> Fr {
    let mut w = [0u64; 4];
    for (j, x) in w.iter_mut().enumerate() {
        *x = splitmix64((4 * i + j as u64) ^ PARITY_SEED);
    }
    w[3] &= 0x3fff_ffff_ffff_ffff;
    let r = Fr::MODULUS;
    if BigInt(w) >= r {
        w[3] &= 0x1fff_ffff_ffff_ffff;
    }
    Fr::from_bigint(BigInt(w)).expect("below the modulus by construction")
}

/// The parity vectors' bases from `bases-65536.bin` (64 bytes each: x, y as four
/// little-endian u64 Montgomery limbs).
///
/// # Panics
/// If `bytes` is not a multiple of 64 bytes or holds a point off the curve.
pub fn parity_bases(bytes: &[u8]) -> Vec<G1Affine> {
    assert_eq!(bytes.len() % 64, 0, "bases file must hold 64-byte points");
    bytes
        .chunks_exact(64)
        .map(|c| {
            let limb =
                |k: usize| u64::from_le_bytes(c[8 * k..8 * k + 8].try_into().expect("8 bytes"));
            let x = ark_ff::Fp(
                BigInt([limb(0), limb(1), limb(2), limb(3)]),
                core::marker::PhantomData,
            );
            let y = ark_ff::Fp(
                BigInt([limb(4), limb(5), limb(6), limb(7)]),
                core::marker::PhantomData,
            );
            let p = G1Affine::new_unchecked(x, y);
            assert!(p.is_on_curve(), "parity base off the curve");
            p
        })
        .collect()
}

/// The CUDA parity inputs of size `n`: base i is `table[i mod len]`, scalar i as above.
pub fn parity_inputs(table: &[G1Affine], n: usize) -> (Vec<G1Affine>, Vec<Fr>) {
    let bases = (0..n).map(|i| table[i % table.len()]).collect();
    let scalars = (0..n as u64).map(parity_scalar).collect();
    (bases, scalars)
}

/// [`parity_inputs`], after checking that the host has the memory for them.
///
/// # Errors
/// [`crate::error::Error::HostMemory`] when `n` bases and scalars exceed the host's
/// available memory (nothing is allocated then).
pub fn checked_parity_inputs(
    table: &[G1Affine],
    n: usize,
) -> crate::error::Result<(Vec<G1Affine>, Vec<Fr>)> {
    let what = format!("{n} parity inputs (bases and scalars)");
    crate::host::check(&what, crate::host::input_bytes(n))?;
    Ok(parity_inputs(table, n))
}

/// The straightforward sum of `s_i * P_i`, as a second reference beside arkworks' MSM.
pub fn naive_msm<C: Group>(bases: &[Affine<C>], scalars: &[C::ScalarField]) -> Projective<C> {
    bases.iter().zip(scalars).map(|(b, s)| *b * s).sum()
}

/// The BN254 CUDA parity vectors' bases file (65,536 points), embedded (BLS12-381's:
/// [`bls12_381`]).
pub const PARITY_BASES: &[u8] = include_bytes!("../tests/data/bases-65536.bin");
/// The CUDA parity vectors' results (`logn x y`, canonical big-endian hex).
pub const PARITY_RESULTS: &str = include_str!("../tests/data/results.txt");

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

/// Sizes (log2) the parity vectors cover.
pub fn parity_sizes() -> Vec<u32> {
    PARITY_RESULTS
        .lines()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect()
}

fn fq_from_hex(h: &str) -> Option<ark_bn254::Fq> {
    if h.len() != 64 {
        return None;
    }
    let mut limbs = [0u64; 4];
    for (k, limb) in limbs.iter_mut().enumerate() {
        let lo = 64 - 16 * (k + 1);
        *limb = u64::from_str_radix(&h[lo..lo + 16], 16).ok()?;
    }
    ark_bn254::Fq::from_bigint(BigInt(limbs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::G1Projective;
    use ark_ec::VariableBaseMSM;

    #[test]
    fn parity_vectors_decode_and_2_16_matches_arkworks() {
        let table = parity_bases(PARITY_BASES);
        assert_eq!(table.len(), 65536);
        assert_eq!(parity_sizes(), vec![16, 18, 20, 22, 24, 26]);
        let (b, s) = parity_inputs(&table, 1 << 16);
        let want = parity_expected(16).expect("2^16 vector");
        assert!(want.is_on_curve());
        assert_eq!(G1Projective::msm(&b, &s).unwrap().into_affine(), want);
    }

    #[test]
    fn inputs_beyond_host_memory_are_an_error_not_an_abort() {
        if crate::host::available().is_none() {
            return;
        }
        let table = parity_bases(PARITY_BASES);
        let r = checked_parity_inputs(&table, 1 << 40);
        assert!(
            matches!(r, Err(crate::error::Error::HostMemory { .. })),
            "2^40 inputs were not refused"
        );
        assert_eq!(checked_parity_inputs(&table, 5).unwrap().0.len(), 5);
    }
}
