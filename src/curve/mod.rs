//! The groups an MSM runs over: short-Weierstrass groups of arkworks (a = 0), each a
//! sealed [`Group`] implemented on its arkworks curve configuration, so that arkworks'
//! own types (`Affine<C>`, `C::ScalarField`, `Projective<C>`) pick the group of a call.
//!
//! A group is described twice: as a type ([`Group`], for the host's encoding of its
//! values) and as a value ([`GroupId`], a small hashable key for kernel caches, plans,
//! logs and the CLI), whose [`GroupSpec`] holds every constant the shaders are generated
//! from (the fields' Montgomery constants, b, the GLV basis), read from arkworks.
//!
//! Supported: BN254 G1 and G2, BLS12-381 G1 and G2 (G2 over Fq2; GLV for all four).

mod group;
mod id;
mod impls;
mod spec;

pub use group::Group;
pub use id::GroupId;
pub use spec::{FieldSpec, GlvSpec, GroupSpec};

/// Keeps [`Group`] implemented only here.
mod sealed {
    pub trait Sealed {}
}
