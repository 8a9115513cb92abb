//! A group as a small hashable value: kernel cache keys, plans, logs and the CLI.

use super::{Group, GroupSpec};
use crate::error::{Error, Result};
use std::sync::OnceLock;

/// Which group: the value of a [`Group`] type ([`Group::ID`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum GroupId {
    /// BN254 G1 (`ark_bn254::g1::Config`).
    #[default]
    Bn254G1,
    /// BLS12-381 G1 (`ark_bls12_381::g1::Config`).
    Bls12381G1,
    /// BN254 G2 (`ark_bn254::g2::Config`), over Fq2.
    Bn254G2,
    /// BLS12-381 G2 (`ark_bls12_381::g2::Config`), over Fq2.
    Bls12381G2,
}

type Bn254G1 = ark_bn254::g1::Config;
type Bls12381G1 = ark_bls12_381::g1::Config;
type Bn254G2 = ark_bn254::g2::Config;
type Bls12381G2 = ark_bls12_381::g2::Config;

impl GroupId {
    /// Every supported group.
    pub const ALL: [GroupId; 4] = [
        GroupId::Bn254G1,
        GroupId::Bls12381G1,
        GroupId::Bn254G2,
        GroupId::Bls12381G2,
    ];

    /// Short name for logs, cache keys and the CLI ("bn254-g1", "bls12-381-g1",
    /// "bn254-g2", "bls12-381-g2").
    pub fn name(self) -> &'static str {
        match self {
            GroupId::Bn254G1 => "bn254-g1",
            GroupId::Bls12381G1 => "bls12-381-g1",
            GroupId::Bn254G2 => "bn254-g2",
            GroupId::Bls12381G2 => "bls12-381-g2",
        }
    }

    /// The group of a curve ("bn254", "bls12-381"; also "bls12_381", "bls12381") and a
    /// group name ("g1", "g2").
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] for an unknown curve or group.
    pub fn parse(curve: &str, group: &str) -> Result<GroupId> {
        let curve = curve.to_ascii_lowercase().replace(['_', '-'], "");
        let group = group.to_ascii_lowercase();
        match (curve.as_str(), group.as_str()) {
            ("bn254", "g1") => Ok(GroupId::Bn254G1),
            ("bls12381", "g1") => Ok(GroupId::Bls12381G1),
            ("bn254", "g2") => Ok(GroupId::Bn254G2),
            ("bls12381", "g2") => Ok(GroupId::Bls12381G2),
            ("bn254" | "bls12381", g) => Err(Error::InvalidConfig(format!(
                "unknown group {g:?} (g1 or g2)"
            ))),
            (c, _) => Err(Error::InvalidConfig(format!(
                "unknown curve {c:?} (bn254 or bls12-381)"
            ))),
        }
    }

    /// 32-bit words of an element of the prime field Fq.
    pub fn fq_words(self) -> u32 {
        match self {
            GroupId::Bn254G1 => Bn254G1::FQ_WORDS as u32,
            GroupId::Bls12381G1 => Bls12381G1::FQ_WORDS as u32,
            GroupId::Bn254G2 => Bn254G2::FQ_WORDS as u32,
            GroupId::Bls12381G2 => Bls12381G2::FQ_WORDS as u32,
        }
    }

    /// Degree of the group's base field over Fq (1 for G1, 2 for G2).
    pub fn degree(self) -> u32 {
        match self {
            GroupId::Bn254G1 => Bn254G1::DEGREE as u32,
            GroupId::Bls12381G1 => Bls12381G1::DEGREE as u32,
            GroupId::Bn254G2 => Bn254G2::DEGREE as u32,
            GroupId::Bls12381G2 => Bls12381G2::DEGREE as u32,
        }
    }

    /// 32-bit words of an element of the group's base field (a point coordinate).
    pub fn element_words(self) -> u32 {
        self.degree() * self.fq_words()
    }

    /// 32-bit words of a scalar.
    pub fn scalar_words(self) -> u32 {
        match self {
            GroupId::Bn254G1 => Bn254G1::SCALAR_WORDS as u32,
            GroupId::Bls12381G1 => Bls12381G1::SCALAR_WORDS as u32,
            GroupId::Bn254G2 => Bn254G2::SCALAR_WORDS as u32,
            GroupId::Bls12381G2 => Bls12381G2::SCALAR_WORDS as u32,
        }
    }

    /// Bits of the scalar field's modulus.
    pub fn scalar_bits(self) -> u32 {
        match self {
            GroupId::Bn254G1 => Bn254G1::SCALAR_BITS,
            GroupId::Bls12381G1 => Bls12381G1::SCALAR_BITS,
            GroupId::Bn254G2 => Bn254G2::SCALAR_BITS,
            GroupId::Bls12381G2 => Bls12381G2::SCALAR_BITS,
        }
    }

    /// Whether MSMs over the group may split scalars with the GLV endomorphism (every
    /// group: G2's is phi(x, y) = (beta x, y) on its j = 0 twist, see
    /// [`GlvSpec::of_g2_over`](crate::curve::GlvSpec::of_g2_over)).
    pub fn has_glv(self) -> bool {
        self.spec().glv.is_some()
    }

    /// Bytes of one affine base on the device (x and y).
    pub fn base_bytes(self) -> u64 {
        8 * u64::from(self.element_words())
    }

    /// Bytes of one XYZZ point on the device (four coordinates): a G1 group's
    /// coordinates take as many words as the Wide64 path's limbs
    /// ([`radix_limbs`](crate::shader::params::radix_limbs): 9 of 29 bits for BN254, 13
    /// of 30 bits for BLS12-381), which that path stores as they are (no conversion in the
    /// accumulation's steps); the other paths store the element's words there and leave
    /// the rest unused. G2's coordinates take their words.
    pub fn point_bytes(self) -> u64 {
        16 * u64::from(self.point_element_words())
    }

    /// Limbs of the Wide64 path's Fq in this group's kernels
    /// ([`radix_bits`](crate::shader::params::radix_bits): G2's Fq as Fq2's coefficients).
    pub fn radix_limbs(self) -> u32 {
        use crate::shader::params::{radix_bits, radix_limbs};
        let words = self.fq_words();
        radix_limbs(words, radix_bits(words, self.degree() == 2))
    }

    /// 32-bit words of one coordinate of a stored XYZZ point (see [`GroupId::point_bytes`]).
    pub fn point_element_words(self) -> u32 {
        if self.degree() == 1 {
            self.radix_limbs()
        } else {
            self.element_words()
        }
    }

    /// Bytes of one scalar on the device.
    pub fn scalar_bytes(self) -> u64 {
        4 * u64::from(self.scalar_words())
    }

    /// The widest window the default width rule gives this group's MSMs of `n` points
    /// over bases resident on the device (`msm_with`, `msm_resident`), split into GLV
    /// halves (`glv`) or not (one-shot MSMs keep the rule's width, and an explicit
    /// `MsmConfig::window_bits` is taken as asked). GLV halves and G1 have no cap below
    /// the rule's own width. A G2 point is twice a G1 point and its additions cost
    /// about three times as much: over whole 255-bit scalars in one pass over resident
    /// bases, wide windows' many buckets cost more than their fewer windows save until
    /// n is large (docs/curves.md): BN254 G2 caps at 13 bits below 2^23 points and at
    /// 15 from there, BLS12-381 G2 at 16.
    pub fn max_default_window_bits(self, n: usize, glv: bool) -> u32 {
        if glv {
            return u32::MAX;
        }
        match self {
            GroupId::Bn254G1 | GroupId::Bls12381G1 => u32::MAX,
            GroupId::Bn254G2 if n < 1 << 23 => 13,
            GroupId::Bn254G2 => 15,
            GroupId::Bls12381G2 => 16,
        }
    }

    /// How much smaller than a BN254 G1 MSM's the first pass of a streamed one-shot MSM
    /// over the group is (added to `Tuning::first_pass_shift`): 1 for every group but
    /// BN254 G1. The dearer groups' passes compute longer than they take to upload, so
    /// the device starts sooner on a smaller first pass; BN254 G1 gains nothing from it
    /// (the measurements: docs/benchmark-log.md, v33 (d)).
    pub fn stream_first_pass_extra_shift(self) -> u32 {
        u32::from(self != GroupId::Bn254G1)
    }

    /// Whether the point formulas of the group's MSM and on-curve kernels run on the
    /// register machine (shaders/curve_tape.wgsl) whatever the unrolling: every group
    /// but BN254 G1. Written out over Fq2 or a 381-bit Fq, a mixed addition holds more
    /// values than a GPU thread keeps in registers; the register machine holds them in
    /// its array and multiplies at one site, and runs these groups faster and steadier,
    /// while BN254 G1's written-out formulas fit and run faster than the machine
    /// (docs/curves.md). The curve over Fq2 also takes it in `Rolled` builds (software
    /// adapters and GL, `Tuning::g2_unroll`).
    pub fn formulas_on_register_machine(self) -> bool {
        self != GroupId::Bn254G1
    }

    /// Whether the Portable32 path offers small limbs (`Fq32::Small`,
    /// src/shader/small.rs), written for a 256-bit Fq: BN254 (G1, and G2, whose Fq2
    /// coefficients are that Fq). Other groups use 32-bit words (shaders/field.wgsl) on
    /// Portable32 whatever the tuning asks (on Wide64 every group has radix-2^29 limbs).
    pub fn has_small_limbs(self) -> bool {
        matches!(self, GroupId::Bn254G1 | GroupId::Bn254G2)
    }

    /// The constants the shaders of this group are generated from (computed once).
    pub fn spec(self) -> &'static GroupSpec {
        static BN254_G1: OnceLock<GroupSpec> = OnceLock::new();
        static BLS12_381_G1: OnceLock<GroupSpec> = OnceLock::new();
        static BN254_G2: OnceLock<GroupSpec> = OnceLock::new();
        static BLS12_381_G2: OnceLock<GroupSpec> = OnceLock::new();
        match self {
            GroupId::Bn254G1 => BN254_G1.get_or_init(Bn254G1::spec),
            GroupId::Bls12381G1 => BLS12_381_G1.get_or_init(Bls12381G1::spec),
            GroupId::Bn254G2 => BN254_G2.get_or_init(Bn254G2::spec),
            GroupId::Bls12381G2 => BLS12_381_G2.get_or_init(Bls12381G2::spec),
        }
    }
}

impl std::fmt::Display for GroupId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        assert_eq!(GroupId::parse("bn254", "g1").unwrap(), GroupId::Bn254G1);
        assert_eq!(
            GroupId::parse("BLS12-381", "G1").unwrap(),
            GroupId::Bls12381G1
        );
        assert_eq!(
            GroupId::parse("bls12_381", "g1").unwrap(),
            GroupId::Bls12381G1
        );
        assert_eq!(GroupId::parse("bn254", "G2").unwrap(), GroupId::Bn254G2);
        assert_eq!(
            GroupId::parse("bls12-381", "g2").unwrap(),
            GroupId::Bls12381G2
        );
        assert!(GroupId::parse("bn254", "g3").is_err());
        assert!(GroupId::parse("secp256k1", "g1").is_err());
        for g in GroupId::ALL {
            assert_eq!(g.spec().id, g);
            assert_eq!(g.spec().degree, g.degree());
            assert_eq!(
                GroupId::parse(
                    &g.name()[..g.name().len() - 3],
                    &g.name()[g.name().len() - 2..]
                )
                .unwrap(),
                g
            );
            assert_eq!(g.base_bytes(), 8 * u64::from(g.element_words()));
        }
        assert_eq!(GroupId::Bls12381G1.fq_words(), 12);
        assert_eq!(GroupId::Bls12381G2.element_words(), 24);
        assert_eq!(GroupId::Bn254G2.point_bytes(), 256);
    }
}
