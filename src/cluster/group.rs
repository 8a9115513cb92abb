//! The groups a cluster runs: how a worker computes a piece of an MSM in each (a
//! [`Worker`] has one method per group; the scheduler is written once over them).

use super::worker::Worker;
use crate::config::MsmConfig;
use crate::curve::Group;
use crate::error::Result;
use ark_ec::short_weierstrass::{Affine, Projective};

/// A [`Group`] a [`crate::Cluster`] runs (every supported group): which [`Worker`]
/// method computes a piece of it.
pub trait ClusterGroup: Group {
    /// `w`'s MSM of one piece.
    ///
    /// # Errors
    /// As the worker's method ([`Worker::msm_chunk`] for BN254 G1,
    /// [`Worker::msm_chunk_bls12_381_g1`] for BLS12-381 G1, and so on).
    fn msm_chunk(
        w: &dyn Worker,
        bases: &[Affine<Self>],
        scalars: &[Self::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<Self>>;
}

impl ClusterGroup for ark_bn254::g1::Config {
    fn msm_chunk(
        w: &dyn Worker,
        bases: &[Affine<Self>],
        scalars: &[Self::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<Self>> {
        w.msm_chunk(bases, scalars, cfg)
    }
}

impl ClusterGroup for ark_bls12_381::g1::Config {
    fn msm_chunk(
        w: &dyn Worker,
        bases: &[Affine<Self>],
        scalars: &[Self::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<Self>> {
        w.msm_chunk_bls12_381_g1(bases, scalars, cfg)
    }
}

impl ClusterGroup for ark_bn254::g2::Config {
    fn msm_chunk(
        w: &dyn Worker,
        bases: &[Affine<Self>],
        scalars: &[Self::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<Self>> {
        w.msm_chunk_bn254_g2(bases, scalars, cfg)
    }
}

impl ClusterGroup for ark_bls12_381::g2::Config {
    fn msm_chunk(
        w: &dyn Worker,
        bases: &[Affine<Self>],
        scalars: &[Self::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<Self>> {
        w.msm_chunk_bls12_381_g2(bases, scalars, cfg)
    }
}
