//! The per-device work of a cluster behind a small trait, so the scheduler can be tested
//! with fake workers and the CPU can join as one more worker.

use crate::config::MsmConfig;
use crate::device::Device;
use crate::error::{Error, Result};
use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::VariableBaseMSM;

/// Something that computes the MSM of one chunk: a GPU [`Device`], the CPU
/// ([`CpuWorker`]), or a test double.
///
/// A worker is shared by the scheduler threads of every MSM running on its cluster, so
/// `msm_chunk` may be called from several threads at once.
pub trait Worker: Send + Sync {
    /// A human-readable name for reports and logs.
    fn name(&self) -> String;

    /// Identifies the hardware behind the worker: workers with the same id share one
    /// throughput measurement (see [`Strategy::Weighted`](super::Strategy::Weighted)).
    fn uid(&self) -> u64;

    /// The hardware model: workers with equal models are expected to run at equal speed
    /// ([`Strategy::Auto`](super::Strategy::Auto) splits evenly among them). Defaults to
    /// [`Worker::name`].
    fn model(&self) -> String {
        self.name()
    }

    /// Whether what the cluster learns about this worker's speed (its cost model,
    /// its throughput) may be kept beyond the cluster, under [`Worker::model`]: for
    /// every cluster of the process and, in the cache directory, for later processes
    /// (see `WGPU_MSM_CACHE_DIR`), so that it is calibrated once per machine. True for
    /// devices and the CPU worker, whose model names pin their speed down; false by
    /// default (a test double's name says nothing about its speed).
    fn remember_costs(&self) -> bool {
        false
    }

    /// `sum_i scalars[i] * bases[i]` for one chunk; `bases.len() == scalars.len() > 0`.
    /// When `cfg.windows` is set ([`Strategy::Windows`](super::Strategy::Windows)), only
    /// those windows of `cfg.window_bits` bits: a worker built on a plain MSM gets them
    /// from [`window_scalars`](crate::msm::window_scalars).
    ///
    /// # Errors
    /// Any [`Error`]: the scheduler gives the chunk to another worker and drops this one
    /// from the current MSM, except for errors about the input itself
    /// ([`Error::PointNotOnCurve`], indices relative to the chunk), which end the MSM.
    fn msm_chunk(
        &self,
        bases: &[G1Affine],
        scalars: &[Fr],
        cfg: &MsmConfig,
    ) -> Result<G1Projective>;

    /// [`Worker::msm_chunk`] over BLS12-381 G1. By default an
    /// [`Error::InvalidConfig`] naming the worker and the group; a
    /// cluster then leaves its pieces to the others.
    ///
    /// # Errors
    /// As [`Worker::msm_chunk`].
    fn msm_chunk_bls12_381_g1(
        &self,
        bases: &[ark_bls12_381::G1Affine],
        scalars: &[ark_bls12_381::Fr],
        cfg: &MsmConfig,
    ) -> Result<ark_bls12_381::G1Projective> {
        let _ = (bases, scalars, cfg);
        Err(unsupported(self, "BLS12-381 G1"))
    }

    /// [`Worker::msm_chunk`] over BN254 G2. By default an [`Error::InvalidConfig`] naming
    /// the worker; a cluster then leaves its pieces to the others.
    ///
    /// # Errors
    /// As [`Worker::msm_chunk`].
    fn msm_chunk_bn254_g2(
        &self,
        bases: &[ark_bn254::G2Affine],
        scalars: &[ark_bn254::Fr],
        cfg: &MsmConfig,
    ) -> Result<ark_bn254::G2Projective> {
        let _ = (bases, scalars, cfg);
        Err(unsupported(self, "BN254 G2"))
    }

    /// [`Worker::msm_chunk`] over BLS12-381 G2. By default an [`Error::InvalidConfig`] naming
    /// the worker; a cluster then leaves its pieces to the others.
    ///
    /// # Errors
    /// As [`Worker::msm_chunk`].
    fn msm_chunk_bls12_381_g2(
        &self,
        bases: &[ark_bls12_381::G2Affine],
        scalars: &[ark_bls12_381::Fr],
        cfg: &MsmConfig,
    ) -> Result<ark_bls12_381::G2Projective> {
        let _ = (bases, scalars, cfg);
        Err(unsupported(self, "BLS12-381 G2"))
    }
}

impl Worker for Device {
    fn name(&self) -> String {
        format!(
            "#{} {} ({}, uid {})",
            self.index(),
            Device::name(self),
            self.info().backend,
            Device::uid(self)
        )
    }

    fn uid(&self) -> u64 {
        Device::uid(self)
    }

    fn remember_costs(&self) -> bool {
        true
    }

    fn model(&self) -> String {
        let i = self.info();
        format!(
            "{} [{:04x}:{:04x}] {} {}",
            i.name, i.vendor, i.device_id, i.backend, i.driver
        )
    }

    fn msm_chunk(
        &self,
        bases: &[G1Affine],
        scalars: &[Fr],
        cfg: &MsmConfig,
    ) -> Result<G1Projective> {
        self.msm(bases, scalars, cfg)
    }

    fn msm_chunk_bls12_381_g1(
        &self,
        bases: &[ark_bls12_381::G1Affine],
        scalars: &[ark_bls12_381::Fr],
        cfg: &MsmConfig,
    ) -> Result<ark_bls12_381::G1Projective> {
        self.msm(bases, scalars, cfg)
    }

    fn msm_chunk_bn254_g2(
        &self,
        bases: &[ark_bn254::G2Affine],
        scalars: &[ark_bn254::Fr],
        cfg: &MsmConfig,
    ) -> Result<ark_bn254::G2Projective> {
        self.msm(bases, scalars, cfg)
    }

    fn msm_chunk_bls12_381_g2(
        &self,
        bases: &[ark_bls12_381::G2Affine],
        scalars: &[ark_bls12_381::Fr],
        cfg: &MsmConfig,
    ) -> Result<ark_bls12_381::G2Projective> {
        self.msm(bases, scalars, cfg)
    }
}

/// The host CPU as a worker: arkworks' `VariableBaseMSM::msm` (multi-threaded when
/// arkworks is built with its `parallel` feature, single-threaded otherwise).
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuWorker;

impl CpuWorker {
    /// The [`Worker::uid`] of the CPU worker (device uids count up from 1).
    pub const UID: u64 = u64::MAX;
}

impl Worker for CpuWorker {
    fn name(&self) -> String {
        "cpu (arkworks)".into()
    }

    fn uid(&self) -> u64 {
        Self::UID
    }

    /// The name and the threads arkworks runs on (what its speed follows).
    fn model(&self) -> String {
        format!(
            "{} on {} threads",
            self.name(),
            rayon::current_num_threads()
        )
    }

    fn remember_costs(&self) -> bool {
        true
    }

    fn msm_chunk(
        &self,
        bases: &[G1Affine],
        scalars: &[Fr],
        cfg: &MsmConfig,
    ) -> Result<G1Projective> {
        let part;
        let scalars = match (&cfg.windows, cfg.window_bits) {
            (Some(w), Some(c)) => {
                part = crate::msm::window_scalars(scalars, c, w.clone());
                &part[..]
            }
            (Some(_), None) => {
                return Err(Error::InvalidConfig(
                    "a range of windows needs window_bits".into(),
                ))
            }
            _ => scalars,
        };
        G1Projective::msm(bases, scalars).map_err(|_| Error::LengthMismatch {
            bases: bases.len(),
            scalars: scalars.len(),
        })
    }

    /// arkworks' MSM of the piece; a range of windows is BN254 G1's only (an error).
    fn msm_chunk_bls12_381_g1(
        &self,
        bases: &[ark_bls12_381::G1Affine],
        scalars: &[ark_bls12_381::Fr],
        cfg: &MsmConfig,
    ) -> Result<ark_bls12_381::G1Projective> {
        whole_piece(bases, scalars, cfg)
    }

    /// arkworks' MSM of the piece; a range of windows is BN254 G1's only (an error).
    fn msm_chunk_bn254_g2(
        &self,
        bases: &[ark_bn254::G2Affine],
        scalars: &[ark_bn254::Fr],
        cfg: &MsmConfig,
    ) -> Result<ark_bn254::G2Projective> {
        whole_piece(bases, scalars, cfg)
    }

    /// arkworks' MSM of the piece; a range of windows is BN254 G1's only (an error).
    fn msm_chunk_bls12_381_g2(
        &self,
        bases: &[ark_bls12_381::G2Affine],
        scalars: &[ark_bls12_381::Fr],
        cfg: &MsmConfig,
    ) -> Result<ark_bls12_381::G2Projective> {
        whole_piece(bases, scalars, cfg)
    }
}

/// The default of a worker's `msm_chunk_*` for a group it does not run: an
/// [`Error::InvalidConfig`] naming both.
fn unsupported<W: Worker + ?Sized>(worker: &W, group: &str) -> Error {
    Error::InvalidConfig(format!("worker {} does not run {group}", worker.name()))
}

/// The CPU worker's MSM of a whole piece of a group other than BN254 G1: arkworks' MSM;
/// a range of windows (`cfg.windows`) is BN254 G1's only, an error here.
fn whole_piece<C: ark_ec::short_weierstrass::SWCurveConfig>(
    bases: &[ark_ec::short_weierstrass::Affine<C>],
    scalars: &[C::ScalarField],
    cfg: &MsmConfig,
) -> Result<ark_ec::short_weierstrass::Projective<C>> {
    if cfg.windows.is_some() {
        return Err(Error::InvalidConfig(
            "the CPU worker computes ranges of windows for BN254 G1 only".into(),
        ));
    }
    ark_ec::short_weierstrass::Projective::<C>::msm(bases, scalars).map_err(|_| {
        Error::LengthMismatch {
            bases: bases.len(),
            scalars: scalars.len(),
        }
    })
}
