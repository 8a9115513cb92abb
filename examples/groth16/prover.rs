//! A Groth16 prover for ark-groth16's keys whose MSMs run behind one seam
//! ([`MsmBackend`]): wgpu-msm on the GPU (G1 and G2), arkworks' `VariableBaseMSM` on
//! the CPU for the reference backend and as the G2 MSM's fallback. Synthesis and the witness map (the QAP's
//! `h`) are ark-groth16's own (`LibsnarkReduction`), and the proof is assembled from the
//! MSMs exactly as ark-groth16's prover assembles it, so for the same `r` and `s` both
//! provers return the same proof.
//!
//! The proving key's query vectors are the fixed bases of every proof, so a
//! [`PreparedKey`] hands each one to the backend once (for the GPU: resident bases,
//! [`Device::upload_bases`]) and every proof then only sends scalars.

use ark_ec::pairing::Pairing;
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::Zero;
use ark_groth16::r1cs_to_qap::{LibsnarkReduction, R1CSToQAP};
use ark_groth16::{Proof, ProvingKey};
use ark_poly::GeneralEvaluationDomain;
use ark_relations::gr1cs::{
    ConstraintSynthesizer, ConstraintSystem, OptimizationGoal, SynthesisError, SynthesisMode,
};
use std::time::{Duration, Instant};
use wgpu_msm::{Device, DeviceBases, Group, MsmConfig};

/// What can stop a proof.
#[derive(Debug, thiserror::Error)]
pub enum ProverError {
    /// Synthesis or the witness map failed (ark-relations / ark-groth16).
    #[error("synthesis: {0}")]
    Synthesis(#[from] SynthesisError),
    /// A GPU MSM or upload failed.
    #[error("wgpu-msm: {0}")]
    Gpu(#[from] wgpu_msm::Error),
    /// A CPU MSM got bases and scalars of different lengths.
    #[error("CPU MSM over {bases} bases with {scalars} scalars")]
    LengthMismatch {
        /// Number of bases.
        bases: usize,
        /// Number of scalars.
        scalars: usize,
    },
}

/// MSMs over one fixed set of bases (a query vector of a proving key), prepared once
/// and reused by every proof.
pub trait FixedBases<G: CurveGroup>: Send + Sync {
    /// `sum_i scalars[i] * bases[i]`, with as many scalars as bases.
    ///
    /// # Errors
    /// [`ProverError::LengthMismatch`] or [`ProverError::Gpu`].
    fn msm(&self, scalars: &[G::ScalarField]) -> Result<G, ProverError>;
    /// Where the MSM runs, for the printout: `"GPU"` or `"CPU"`.
    fn placement(&self) -> &'static str;
}

/// The seam between the prover and the MSM engines: prepares the fixed bases of a
/// pairing's two groups.
pub trait MsmBackend<E: Pairing> {
    /// Prepares G1 bases (A, B in G1, H and L queries).
    ///
    /// # Errors
    /// [`ProverError::Gpu`] when the bases cannot be uploaded.
    fn g1(&self, bases: &[E::G1Affine]) -> Result<Box<dyn FixedBases<E::G1>>, ProverError>;
    /// Prepares G2 bases (the B query in G2).
    ///
    /// # Errors
    /// [`ProverError::Gpu`] when the bases cannot be uploaded.
    fn g2(&self, bases: &[E::G2Affine]) -> Result<Box<dyn FixedBases<E::G2>>, ProverError>;
}

/// Bases kept on the host for arkworks' CPU MSM (all cores, through rayon).
pub struct CpuBases<A>(pub Vec<A>);

impl<A: AffineRepr> FixedBases<A::Group> for CpuBases<A> {
    fn msm(&self, scalars: &[A::ScalarField]) -> Result<A::Group, ProverError> {
        if self.0.len() != scalars.len() {
            return Err(ProverError::LengthMismatch {
                bases: self.0.len(),
                scalars: scalars.len(),
            });
        }
        Ok(<A::Group as ark_ec::VariableBaseMSM>::msm_unchecked(
            &self.0, scalars,
        ))
    }
    fn placement(&self) -> &'static str {
        "CPU"
    }
}

/// Bases of a group wgpu-msm serves, resident on a GPU ([`Device::upload_bases`]).
pub struct GpuBases<C: Group> {
    device: Device,
    bases: DeviceBases<C>,
    cfg: MsmConfig,
}

impl<C: Group> FixedBases<Projective<C>> for GpuBases<C> {
    fn msm(&self, scalars: &[C::ScalarField]) -> Result<Projective<C>, ProverError> {
        Ok(self.device.msm_with(&self.bases, scalars, &self.cfg)?)
    }
    fn placement(&self) -> &'static str {
        "GPU"
    }
}

/// Bases of the G2 MSM on a GPU, with a copy on the host: an MSM the GPU fails (an
/// error, e.g. a pipeline a driver cannot build) runs on the CPU instead, and says so
/// on stderr once.
pub struct G2Bases<C: Group> {
    gpu: GpuBases<C>,
    host: CpuBases<Affine<C>>,
    fell_back: std::sync::atomic::AtomicBool,
}

impl<C: Group> FixedBases<Projective<C>> for G2Bases<C> {
    fn msm(&self, scalars: &[C::ScalarField]) -> Result<Projective<C>, ProverError> {
        match self.gpu.msm(scalars) {
            Ok(r) => Ok(r),
            Err(e) => {
                if !self
                    .fell_back
                    .swap(true, std::sync::atomic::Ordering::Relaxed)
                {
                    eprintln!(
                        "{} MSM on the GPU failed ({e}); running it on the CPU",
                        C::ID
                    );
                }
                self.host.msm(scalars)
            }
        }
    }
    /// "GPU", or "CPU" once an MSM has fallen back.
    fn placement(&self) -> &'static str {
        if self.fell_back.load(std::sync::atomic::Ordering::Relaxed) {
            "CPU"
        } else {
            "GPU"
        }
    }
}

/// MSMs on one wgpu-msm device, G1's and G2's (the G2 MSM falls back to the CPU when
/// the GPU fails it, see [`G2Bases`]; `g2_on_cpu` keeps it on the CPU).
pub struct Gpu {
    /// The device that runs the MSMs.
    pub device: Device,
    /// Options of every MSM.
    pub cfg: MsmConfig,
    /// Runs the G2 MSM on the CPU (arkworks) instead: its GPU pipelines take minutes
    /// to build on a software driver.
    pub g2_on_cpu: bool,
}

impl Gpu {
    /// `device` with the default options. The G2 MSM runs on the GPU, but on the CPU
    /// where the device is a software adapter (device type "Cpu", e.g. lavapipe, which
    /// builds G2's MSM pipelines for minutes: docs/curves.md); `WGPU_MSM_GROTH16_G2=gpu` or
    /// `=cpu` chooses instead.
    pub fn new(device: Device) -> Gpu {
        let g2_on_cpu = match std::env::var("WGPU_MSM_GROTH16_G2").as_deref() {
            Ok("gpu") => false,
            Ok("cpu") => true,
            _ => device.info().device_type == "Cpu",
        };
        Gpu {
            device,
            cfg: MsmConfig::default(),
            g2_on_cpu,
        }
    }

    /// Uploads `bases` for GPU MSMs.
    fn resident<C: Group>(&self, bases: &[Affine<C>]) -> Result<GpuBases<C>, ProverError> {
        Ok(GpuBases {
            device: self.device.clone(),
            bases: self.device.upload_bases_with(bases, &self.cfg)?,
            cfg: self.cfg.clone(),
        })
    }

    /// Uploads `bases` for GPU MSMs.
    fn upload<C: Group>(
        &self,
        bases: &[Affine<C>],
    ) -> Result<Box<dyn FixedBases<Projective<C>>>, ProverError> {
        Ok(Box::new(self.resident(bases)?))
    }

    /// G2 bases for GPU MSMs with the CPU as fallback (an upload the GPU refuses
    /// leaves them on the CPU), or on the CPU when `g2_on_cpu`.
    fn upload_g2<C: Group>(
        &self,
        bases: &[Affine<C>],
    ) -> Result<Box<dyn FixedBases<Projective<C>>>, ProverError> {
        let host = CpuBases(bases.to_vec());
        if self.g2_on_cpu {
            return Ok(Box::new(host));
        }
        match self.resident(bases) {
            Ok(gpu) => Ok(Box::new(G2Bases {
                gpu,
                host,
                fell_back: false.into(),
            })),
            Err(e) => {
                eprintln!(
                    "{} bases not uploaded ({e}); their MSM runs on the CPU",
                    C::ID
                );
                Ok(Box::new(host))
            }
        }
    }
}

impl MsmBackend<ark_bn254::Bn254> for Gpu {
    fn g1(
        &self,
        bases: &[ark_bn254::G1Affine],
    ) -> Result<Box<dyn FixedBases<ark_bn254::G1Projective>>, ProverError> {
        self.upload(bases)
    }
    fn g2(
        &self,
        bases: &[ark_bn254::G2Affine],
    ) -> Result<Box<dyn FixedBases<ark_bn254::G2Projective>>, ProverError> {
        self.upload_g2(bases)
    }
}

impl MsmBackend<ark_bls12_381::Bls12_381> for Gpu {
    fn g1(
        &self,
        bases: &[ark_bls12_381::G1Affine],
    ) -> Result<Box<dyn FixedBases<ark_bls12_381::G1Projective>>, ProverError> {
        self.upload(bases)
    }
    fn g2(
        &self,
        bases: &[ark_bls12_381::G2Affine],
    ) -> Result<Box<dyn FixedBases<ark_bls12_381::G2Projective>>, ProverError> {
        self.upload_g2(bases)
    }
}

/// The five MSMs of a Groth16 proof, in the order the prover runs them.
pub const MSM_NAMES: [&str; 5] = ["A (G1)", "B (G1)", "B (G2)", "C: H (G1)", "C: L (G1)"];

/// A proving key with its query vectors prepared by a backend: the bases of every
/// MSM without their first element (the constant one's, added on the host as
/// ark-groth16 does).
pub struct PreparedKey<'a, E: Pairing> {
    pk: &'a ProvingKey<E>,
    a: Box<dyn FixedBases<E::G1>>,
    b_g1: Box<dyn FixedBases<E::G1>>,
    b_g2: Box<dyn FixedBases<E::G2>>,
    h: Box<dyn FixedBases<E::G1>>,
    l: Box<dyn FixedBases<E::G1>>,
    /// Whether the MSMs that need no `h` run beside the witness map.
    pub overlap: bool,
}

/// The sums of the MSMs over the assignment and the witness: `(A, B_1, B_2, L)`.
type AssignmentSums<E> = (
    <E as Pairing>::G1,
    <E as Pairing>::G1,
    <E as Pairing>::G2,
    <E as Pairing>::G1,
);

/// Where the time of one proof went.
#[derive(Clone, Debug, Default)]
pub struct ProveTimes {
    /// Constraint synthesis and finalisation (ark-relations).
    pub synthesis: Duration,
    /// The witness map: `h` by ark-groth16's `LibsnarkReduction` (FFTs on the CPU).
    pub witness_map: Duration,
    /// Each MSM, in the order of [`MSM_NAMES`].
    pub msm: [Duration; 5],
    /// The whole proof.
    pub total: Duration,
}

impl ProveTimes {
    /// The five MSMs together.
    pub fn msm_total(&self) -> Duration {
        self.msm.iter().sum()
    }
}

impl<'a, E: Pairing> PreparedKey<'a, E> {
    /// Hands every query vector of `pk` to `backend` (for the GPU: uploads the bases).
    ///
    /// # Errors
    /// As the backend's [`MsmBackend::g1`] and [`MsmBackend::g2`].
    pub fn new(pk: &'a ProvingKey<E>, backend: &impl MsmBackend<E>) -> Result<Self, ProverError> {
        Ok(PreparedKey {
            pk,
            a: backend.g1(&pk.a_query[1..])?,
            b_g1: backend.g1(&pk.b_g1_query[1..])?,
            b_g2: backend.g2(&pk.b_g2_query[1..])?,
            h: backend.g1(&pk.h_query)?,
            l: backend.g1(&pk.l_query)?,
            overlap: false,
        })
    }

    /// The MSMs over the assignment (A, B in G1 and G2) and over the witness (L),
    /// each timed into its slot of `times`.
    fn assignment_msms(
        &self,
        assignment: &[E::ScalarField],
        aux: &[E::ScalarField],
        r: E::ScalarField,
        times: &mut [Duration; 5],
    ) -> Result<AssignmentSums<E>, ProverError> {
        let a = timed(&mut times[0], || self.a.msm(assignment))?;
        let b_g1 = if r.is_zero() {
            // ark-groth16 skips B in G1 when it is multiplied by r = 0.
            E::G1::zero()
        } else {
            timed(&mut times[1], || self.b_g1.msm(assignment))?
        };
        let b_g2 = timed(&mut times[2], || self.b_g2.msm(assignment))?;
        let l = timed(&mut times[4], || self.l.msm(aux))?;
        Ok((a, b_g1, b_g2, l))
    }

    /// Where each MSM runs, in the order of [`MSM_NAMES`].
    pub fn placements(&self) -> [&'static str; 5] {
        [
            self.a.placement(),
            self.b_g1.placement(),
            self.b_g2.placement(),
            self.h.placement(),
            self.l.placement(),
        ]
    }

    /// Proves `circuit` with the randomness `r`, `s`: synthesis as ark-groth16's
    /// prover does it, its witness map for `h`, the five MSMs through the backend (with
    /// [`PreparedKey::overlap`], the four that need no `h` on a second thread beside
    /// the witness map), and the Groth16 assembly, with `z` the full assignment
    /// (`z_0 = 1`) and `w` its witness part:
    /// `A = alpha + sum z_i a_query_i + r delta`,
    /// `B = beta + sum z_i b_query_i + s delta` (in G1 and in G2),
    /// `C = sum w_i l_query_i + sum h_j h_query_j + s A + r B_G1 - r s delta`.
    ///
    /// # Errors
    /// [`ProverError::Synthesis`] when the circuit fails to synthesise; MSM errors.
    pub fn prove<C: ConstraintSynthesizer<E::ScalarField>>(
        &self,
        circuit: C,
        r: E::ScalarField,
        s: E::ScalarField,
    ) -> Result<(Proof<E>, ProveTimes), ProverError> {
        let start = Instant::now();
        let mut times = ProveTimes::default();
        let pk = self.pk;

        let cs = ConstraintSystem::new_ref();
        cs.set_optimization_goal(OptimizationGoal::Constraints);
        cs.set_mode(SynthesisMode::Prove {
            construct_matrices: true,
            generate_lc_assignments: false,
        });
        circuit.generate_constraints(cs.clone())?;
        cs.finalize();
        times.synthesis = start.elapsed();

        let prover = cs.borrow().ok_or(SynthesisError::MissingCS)?;
        let aux = prover.witness_assignment()?;
        // Every variable but the constant one: the scalars of A and B.
        let assignment = [&prover.instance_assignment()?[1..], aux].concat();

        let witness_map = || {
            let t = Instant::now();
            let h = LibsnarkReduction::witness_map::<
                E::ScalarField,
                GeneralEvaluationDomain<E::ScalarField>,
            >(cs.clone());
            (h, t.elapsed())
        };
        let ((h, witness_time), accs) = if self.overlap {
            // A, B and L need only the assignment: they run beside the witness map,
            // which stays on this thread (the constraint system is not `Send`).
            std::thread::scope(|scope| {
                let msms =
                    scope.spawn(|| self.assignment_msms(&assignment, aux, r, &mut times.msm));
                let h = witness_map();
                let accs = msms.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                (h, accs)
            })
        } else {
            let h = witness_map();
            (h, self.assignment_msms(&assignment, aux, r, &mut times.msm))
        };
        times.witness_map = witness_time;
        let (h, accs) = (h?, accs?);
        // h has one coefficient more than the H query; it is zero (deg h <= n - 2).
        let h = &h[..pk.h_query.len().min(h.len())];
        let h_acc = timed(&mut times.msm[3], || self.h.msm(h))?;
        let (a_acc, b_g1_acc, b_g2_acc, l_acc) = accs;

        let g_a = pk.delta_g1 * r + pk.a_query[0] + a_acc + pk.vk.alpha_g1;
        let g1_b = if r.is_zero() {
            E::G1::zero()
        } else {
            pk.delta_g1 * s + pk.b_g1_query[0] + b_g1_acc + pk.beta_g1
        };
        let g2_b = pk.vk.delta_g2 * s + pk.b_g2_query[0] + b_g2_acc + pk.vk.beta_g2;
        let g_c = g_a * s + g1_b * r - pk.delta_g1 * (r * s) + l_acc + h_acc;
        times.total = start.elapsed();
        Ok((
            Proof {
                a: g_a.into_affine(),
                b: g2_b.into_affine(),
                c: g_c.into_affine(),
            },
            times,
        ))
    }
}

/// Runs `f`, storing its duration in `slot`.
fn timed<T>(slot: &mut Duration, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let r = f();
    *slot = t.elapsed();
    r
}
