//! The group a command runs over (`--curve`, `--group`) and each group's inputs: the
//! CUDA parity vectors of tests/data, verified results, arkworks' reference.

use ark_ec::short_weierstrass::Affine;
use ark_ec::{CurveGroup, VariableBaseMSM};
use std::sync::OnceLock;
use wgpu_msm::{ClusterGroup, Error, Group, GroupId, Result};

/// A curve of `--curve`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(crate) enum Curve {
    Bn254,
    #[value(name = "bls12-381")]
    Bls12381,
}

/// A group of `--group`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(crate) enum GroupName {
    G1,
    G2,
}

/// `--curve` and `--group`: which group the command runs over.
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct GroupArgs {
    /// Curve of the MSM.
    #[arg(long, value_enum, default_value = "bn254")]
    pub(crate) curve: Curve,
    /// Group of the MSM.
    #[arg(long, value_enum, default_value = "g1")]
    pub(crate) group: GroupName,
}

impl GroupArgs {
    /// The group asked for.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] for an unknown group (none of `--curve` x `--group`).
    pub(crate) fn id(&self) -> Result<GroupId> {
        let curve = match self.curve {
            Curve::Bn254 => "bn254",
            Curve::Bls12381 => "bls12-381",
        };
        let group = match self.group {
            GroupName::G1 => "g1",
            GroupName::G2 => "g2",
        };
        GroupId::parse(curve, group)
    }
}

/// What the CLI needs of a group beyond [`ClusterGroup`] (a [`wgpu_msm::Group`] a
/// `Cluster` runs): its parity vectors.
pub(crate) trait CliGroup: ClusterGroup {
    /// The parity inputs of size `n` (bases repeat the vectors' table).
    fn parity_inputs(n: usize) -> (Vec<Affine<Self>>, Vec<Self::ScalarField>);
    /// The CUDA result at 2^lg, where the vectors have it.
    fn parity_expected(lg: u32) -> Option<Affine<Self>>;
    /// The MSM of `parity_inputs(n)` computed on the host by a shortcut, where the
    /// inputs allow one; `None`: arkworks' MSM of the whole input is the reference.
    fn parity_shortcut(
        _bases: &[Affine<Self>],
        _scalars: &[Self::ScalarField],
    ) -> Option<Affine<Self>> {
        None
    }
}

impl CliGroup for ark_bn254::g1::Config {
    fn parity_inputs(n: usize) -> (Vec<Affine<Self>>, Vec<Self::ScalarField>) {
        use wgpu_msm::testing as t;
        static TABLE: OnceLock<Vec<ark_bn254::G1Affine>> = OnceLock::new();
        t::parity_inputs(TABLE.get_or_init(|| t::parity_bases(t::PARITY_BASES)), n)
    }
    fn parity_expected(lg: u32) -> Option<Affine<Self>> {
        wgpu_msm::testing::parity_expected(lg)
    }
}

impl CliGroup for ark_bls12_381::g1::Config {
    fn parity_inputs(n: usize) -> (Vec<Affine<Self>>, Vec<Self::ScalarField>) {
        use wgpu_msm::testing::bls12_381 as t;
        static TABLE: OnceLock<Vec<ark_bls12_381::G1Affine>> = OnceLock::new();
        t::parity_inputs(TABLE.get_or_init(|| t::parity_bases(t::PARITY_BASES)), n)
    }
    fn parity_expected(lg: u32) -> Option<Affine<Self>> {
        wgpu_msm::testing::bls12_381::parity_expected(lg)
    }
}

/// Distinct bases of the G2 inputs (repeated cyclically: G2 points cost a scalar
/// multiplication each to make).
const G2_TABLE: usize = 1 << 10;
/// Seed of the G2 inputs.
const G2_SEED: u64 = 0x6232_5eed;

/// G2 inputs: seeded random bases and scalars (no CUDA vectors for G2, so every
/// result is checked against arkworks).
macro_rules! g2_inputs {
    ($cfg:ty) => {
        impl CliGroup for $cfg {
            fn parity_inputs(n: usize) -> (Vec<Affine<Self>>, Vec<Self::ScalarField>) {
                use wgpu_msm::testing as t;
                static TABLE: OnceLock<Vec<Affine<$cfg>>> = OnceLock::new();
                let table =
                    TABLE.get_or_init(|| t::random_bases_in::<$cfg>(G2_TABLE, G2_TABLE, G2_SEED));
                let bases = (0..n).map(|i| table[i % table.len()]).collect();
                (bases, t::random_scalars_in::<$cfg>(n, G2_SEED))
            }
            fn parity_expected(_lg: u32) -> Option<Affine<Self>> {
                None
            }
            fn parity_shortcut(
                bases: &[Affine<Self>],
                scalars: &[Self::ScalarField],
            ) -> Option<Affine<Self>> {
                table_msm::<$cfg>(bases, scalars)
            }
        }
    };
}

/// The MSM of G2 parity inputs larger than their table: base i is table entry
/// i mod `G2_TABLE`, so the MSM is the table's MSM with each entry's scalars summed
/// (one addition a point on the host instead of arkworks' MSM of 2^24 G2 points).
/// `None` where the bases do not repeat the table (a caller's own inputs).
fn table_msm<C: Group>(bases: &[Affine<C>], scalars: &[C::ScalarField]) -> Option<Affine<C>> {
    let t = G2_TABLE.min(bases.len());
    if bases.len() <= G2_TABLE
        || scalars.len() != bases.len()
        || bases.iter().enumerate().any(|(i, b)| *b != bases[i % t])
    {
        return None;
    }
    let mut sums = vec![C::ScalarField::default(); t];
    for (i, s) in scalars.iter().enumerate() {
        sums[i % t] += s;
    }
    let r = ark_ec::short_weierstrass::Projective::<C>::msm(&bases[..t], &sums).ok()?;
    Some(r.into_affine())
}
g2_inputs!(ark_bn254::g2::Config);
g2_inputs!(ark_bls12_381::g2::Config);

/// The expected MSM of the 2^lg parity inputs: the CUDA vector where there is one, else
/// the group's shortcut where its inputs allow one, else arkworks' MSM.
pub(crate) fn reference<C: CliGroup>(
    lg: u32,
    bases: &[Affine<C>],
    scalars: &[C::ScalarField],
) -> Result<Affine<C>> {
    match C::parity_expected(lg).or_else(|| C::parity_shortcut(bases, scalars)) {
        Some(w) => Ok(w),
        None => Ok(arkworks::<C>(bases, scalars)?.into_affine()),
    }
}

/// arkworks' MSM of the inputs.
pub(crate) fn arkworks<C: Group>(
    bases: &[Affine<C>],
    scalars: &[C::ScalarField],
) -> Result<ark_ec::short_weierstrass::Projective<C>> {
    ark_ec::short_weierstrass::Projective::<C>::msm(bases, scalars)
        .map_err(|_| Error::InvalidConfig("arkworks msm".into()))
}
