//! MSM inputs and results as bytes, in arkworks' canonical uncompressed serialization
//! (`CanonicalSerialize::serialize_uncompressed`): a BN254 G1 affine point is 64 bytes
//! (x then y, little-endian, the flags in the top bits of the last byte), an Fr scalar
//! 32 bytes. Points are validated on the way in (on the curve, in the subgroup).

use crate::error::{Result, WebError};
use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};

/// Bytes of one uncompressed BN254 G1 affine point.
pub const POINT_BYTES: usize = 64;
/// Bytes of one Fr scalar.
pub const SCALAR_BYTES: usize = 32;

/// The points of `bytes` (a whole number of [`POINT_BYTES`]).
///
/// # Errors
/// [`WebError::Invalid`] for a length that is not a multiple of 64, or a point that
/// does not deserialize (off the curve, not in the subgroup, a coordinate not reduced).
pub fn parse_bases(bytes: &[u8]) -> Result<Vec<G1Affine>> {
    if !bytes.len().is_multiple_of(POINT_BYTES) {
        return Err(WebError::Invalid(format!(
            "bases: {} bytes is not a whole number of {POINT_BYTES}-byte uncompressed BN254 G1 points",
            bytes.len()
        )));
    }
    bytes
        .chunks_exact(POINT_BYTES)
        .enumerate()
        .map(|(i, c)| {
            G1Affine::deserialize_uncompressed(c)
                .map_err(|e| WebError::Invalid(format!("base {i} is not a BN254 G1 point: {e}")))
        })
        .collect()
}

/// The scalars of `bytes` (a whole number of [`SCALAR_BYTES`]).
///
/// # Errors
/// [`WebError::Invalid`] for a length that is not a multiple of 32, or a scalar not
/// below the group order.
pub fn parse_scalars(bytes: &[u8]) -> Result<Vec<Fr>> {
    if !bytes.len().is_multiple_of(SCALAR_BYTES) {
        return Err(WebError::Invalid(format!(
            "scalars: {} bytes is not a whole number of {SCALAR_BYTES}-byte Fr scalars",
            bytes.len()
        )));
    }
    bytes
        .chunks_exact(SCALAR_BYTES)
        .enumerate()
        .map(|(i, c)| {
            Fr::deserialize_uncompressed(c)
                .map_err(|e| WebError::Invalid(format!("scalar {i} is not an Fr element: {e}")))
        })
        .collect()
}

/// Bases and scalars from bytes, of equal counts.
///
/// # Errors
/// As [`parse_bases`] and [`parse_scalars`]; [`WebError::Invalid`] when the counts
/// differ.
pub fn parse_inputs(bases: &[u8], scalars: &[u8]) -> Result<(Vec<G1Affine>, Vec<Fr>)> {
    let (b, s) = (parse_bases(bases)?, parse_scalars(scalars)?);
    if b.len() != s.len() {
        return Err(WebError::Invalid(format!(
            "{} bases but {} scalars",
            b.len(),
            s.len()
        )));
    }
    Ok((b, s))
}

/// The uncompressed bytes of `p` (as an affine point).
pub fn point_bytes(p: &G1Projective) -> Vec<u8> {
    let mut out = Vec::with_capacity(POINT_BYTES);
    // Serializing into a Vec cannot fail.
    let _ = p.into_affine().serialize_uncompressed(&mut out);
    out
}

/// The bytes of many points or scalars, concatenated.
pub fn many_bytes<T: CanonicalSerialize>(items: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(items.iter().map(|i| i.uncompressed_size()).sum());
    for i in items {
        let _ = i.serialize_uncompressed(&mut out);
    }
    out
}

/// arkworks' MSM of byte inputs, as bytes (the reference the page compares with).
///
/// # Errors
/// As [`parse_inputs`].
pub fn arkworks_msm(bases: &[u8], scalars: &[u8]) -> Result<Vec<u8>> {
    let (b, s) = parse_inputs(bases, scalars)?;
    Ok(point_bytes(&G1Projective::msm(&b, &s).unwrap_or_default()))
}
