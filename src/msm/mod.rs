//! MSM on one device: `sum_i scalars[i] * bases[i]` over a supported group
//! ([`crate::curve::Group`]: BN254 G1, BLS12-381 G1), with every Pippenger stage in
//! WGSL and the result identical to arkworks'. Every entry point is generic over the
//! group, which the arkworks types of its arguments pick.
//!
//! Read the folder in this order:
//! - this file: the entry points (`Device::msm`, `msm_with`, `msm_batch`,
//!   `msm_resident`), which route to a driver in `run/`;
//! - `stages/`: one pass of the pipeline, a host file per stage in the order the
//!   stages run, each named as its WGSL (`shaders/msm_*.wgsl`): decompose, sort
//!   (scan and scatter), accumulate, fold (and collect), reduce; then `combine`, the
//!   host's weighting of the window sums;
//! - `run/`: the drivers over one job core (`job/`: kernels, pooled working buffers,
//!   one readback, per-pass encoding, submission, the read-back result): `batch` for
//!   resident bases, `stream` for host bases streamed in chunks, `on_device` for
//!   resident bases and scalars;
//! - `memory/`: the pooled input slots (`arena`), their host-visible upload buffers
//!   (`staging`) and the threads that fill them (`upload`), the working buffers of a
//!   pass (`working`) and the pools that keep both (`pool`);
//! - `resident/`: bases and scalars kept on the device between calls;
//! - `plan/`: sizing a pass against the device's limits and the memory budget, the
//!   per-device `Tuning`, and splitting scalars by windows;
//! - `state`, `kernels`, `profile`, `encode`: the per-device state (compiled kernels,
//!   pools), the profile of the last MSM, and the host <-> device word layout;
//!   `waves`: the accumulation's wave sizes kept on disk between processes.

pub mod encode;
mod kernels;
mod memory;
pub mod plan;
mod profile;
mod resident;
mod run;
pub(crate) mod stages;
mod state;
mod waves;

pub use plan::tuning::{DirectUploads, Tuning};
pub use plan::windows::window_scalars;
pub use profile::{StageProfile, TimelineEvent};
pub use resident::bases::DeviceBases;
pub use resident::scalars::DeviceScalars;

use crate::config::{Arithmetic, MsmConfig, MulPath};
use crate::curve::{Group, GroupId};
use crate::device::{gpu, Device};
use crate::error::{Error, Result};
use crate::shader::ShaderKind;
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ff::Zero;
use plan::DeviceLimits;

impl Device {
    /// The multiply path `arith` resolves to on this device.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] when `Wide64` is forced on a device without SHADER_INT64.
    pub fn resolve_arithmetic(&self, arith: Arithmetic) -> Result<MulPath> {
        let has64 = self.info().shader_int64;
        match arith {
            Arithmetic::Auto if has64 => Ok(MulPath::Wide64),
            Arithmetic::Auto | Arithmetic::Portable32 => Ok(MulPath::Portable32),
            Arithmetic::Wide64 if has64 => Ok(MulPath::Wide64),
            Arithmetic::Wide64 => Err(Error::InvalidConfig(format!(
                "Wide64 needs SHADER_INT64, which {} lacks",
                self.name()
            ))),
        }
    }

    /// What a plan for `group` must respect on this device under `tuning`.
    pub(crate) fn limits(&self, tuning: &Tuning, group: GroupId) -> DeviceLimits {
        let i = self.info();
        DeviceLimits {
            max_binding: i.max_storage_binding,
            max_buffer: i.max_buffer_size,
            max_workgroups: i.max_workgroups_per_dimension,
            threads: plan::Threads {
                accumulate_log2: tuning.accumulate_threads_log2,
                workgroup_storage: i.max_workgroup_storage,
                seed_points: tuning.seed_points_for(group),
            },
            default_budget: tuning.memory_budget,
        }
    }

    /// What this device holds in one pass of a BN254 G1 MSM: the most points a pass
    /// takes under `cfg` (its window and memory budget) within the device's binding and
    /// buffer limits, and the bytes such a pass allocates. Larger MSMs are split into passes
    /// (host bases streamed in chunks), so this bounds the pass, not the MSM.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when not even a pass of 64 points fits the budget;
    /// [`Error::LimitExceeded`] when not even its buffers fit a binding (windows too wide
    /// for the device); [`Error::InvalidConfig`] for bad window bits.
    pub fn pass_capacity(&self, cfg: &MsmConfig) -> Result<PassCapacity> {
        let layout = plan::Layout::streamed(GroupId::Bn254G1, cfg);
        let feed = plan::Feed::Chunks;
        let limits = self.limits(&self.tuning()?, GroupId::Bn254G1);
        let p = plan::choose(usize::MAX >> 1, cfg, &limits, feed, 0, layout)?;
        Ok(PassCapacity {
            points: p.points as usize,
            bytes: p.job_bytes(plan::Feed::Chunks, plan::Feed::Chunks.min_slots()),
        })
    }

    /// Blocking MSM of host bases and scalars; see [`Device::msm_async`].
    ///
    /// # Errors
    /// As [`Device::msm_async`].
    ///
    /// # Example
    /// ```no_run
    /// use ark_ec::VariableBaseMSM;
    /// use ark_std::UniformRand;
    /// let mut rng = ark_std::test_rng();
    /// let bases: Vec<ark_bn254::G1Affine> = (0..100).map(|_| ark_bn254::G1Affine::rand(&mut rng)).collect();
    /// let scalars: Vec<ark_bn254::Fr> = (0..100).map(|_| ark_bn254::Fr::rand(&mut rng)).collect();
    /// let dev = &wgpu_msm::Device::all()?[0];
    /// let r = dev.msm(&bases, &scalars, &wgpu_msm::MsmConfig::default())?;
    /// assert_eq!(r, ark_bn254::G1Projective::msm(&bases, &scalars).unwrap());
    /// # Ok::<(), wgpu_msm::Error>(())
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn msm<C: Group>(
        &self,
        bases: &[Affine<C>],
        scalars: &[C::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
        pollster::block_on(self.msm_async(bases, scalars, cfg))
    }

    /// MSM of host bases and scalars, as a future. Runs every stage on the device and
    /// reads back a few sums per window.
    ///
    /// The input is streamed through pooled input slots in chunks of one pass: one
    /// chunk for most inputs, four to five from 2^20 points (the upload of a chunk
    /// overlaps the compute of the one before), and as many as `cfg.memory_budget`
    /// needs, so the device never holds more than the budget, whatever the size.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`]; [`Error::PointNotOnCurve`] for a base off the curve
    /// (its index in `bases`); [`Error::OutOfMemory`] when even one chunk does not fit;
    /// GPU errors as values.
    pub async fn msm_async<C: Group>(
        &self,
        bases: &[Affine<C>],
        scalars: &[C::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
        self.prepare_in_browser::<C>(cfg).await?;
        gpu::settled(self.msm_host(bases, scalars, cfg).await).await
    }

    /// [`Device::msm_async`] with its kernels built.
    async fn msm_host<C: Group>(
        &self,
        bases: &[Affine<C>],
        scalars: &[C::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
        Error::check_lengths(bases.len(), scalars.len())?;
        if bases.is_empty() {
            return Ok(Projective::<C>::zero());
        }
        match run::stream::route(self, C::ID, bases.len(), cfg)? {
            run::stream::Route::Resident => {
                let resident = self.upload_bases_with(bases, cfg)?;
                self.msm_with_host(&resident, scalars, cfg).await
            }
            run::stream::Route::Stream { plan, growing } => {
                run::stream::run(self, bases, scalars, cfg, plan, growing).await
            }
        }
    }

    /// Blocking MSM over bases already on this device; see [`Device::msm_with_async`].
    ///
    /// # Errors
    /// As [`Device::msm_with_async`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn msm_with<C: Group>(
        &self,
        bases: &DeviceBases<C>,
        scalars: &[C::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
        pollster::block_on(self.msm_with_async(bases, scalars, cfg))
    }

    /// MSM over resident bases: no base upload per call.
    ///
    /// `cfg.memory_budget` bounds the bases together with what the call allocates: the
    /// resident bases ([`DeviceBases::device_bytes`]: for BN254 G1 128 bytes each
    /// expanded, 64 plain) count first, and the working buffers and scalar slot must fit in the rest
    /// (see [`Device::upload_bases_with`]).
    ///
    /// # Errors
    /// [`Error::WrongDevice`] when `bases` live on another device;
    /// [`Error::LengthMismatch`]; [`Error::PointNotOnCurve`]; [`Error::OutOfMemory`]
    /// when the bases leave too little of the budget; GPU errors as values.
    pub async fn msm_with_async<C: Group>(
        &self,
        bases: &DeviceBases<C>,
        scalars: &[C::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
        self.prepare_in_browser::<C>(cfg).await?;
        gpu::settled(self.msm_with_host(bases, scalars, cfg).await).await
    }

    /// [`Device::msm_with_async`] with its kernels built.
    async fn msm_with_host<C: Group>(
        &self,
        bases: &DeviceBases<C>,
        scalars: &[C::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
        self.check_owner("DeviceBases", bases.device_uid())?;
        Error::check_lengths(bases.len(), scalars.len())?;
        let r = run::batch::run(self, bases, &[scalars], cfg).await?;
        r.into_iter().next().ok_or(Error::Cancelled)
    }

    /// Blocking MSM of resident scalars over resident bases; see
    /// [`Device::msm_resident_async`].
    ///
    /// # Errors
    /// As [`Device::msm_resident_async`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn msm_resident<C: Group>(
        &self,
        bases: &DeviceBases<C>,
        scalars: &DeviceScalars<C>,
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
        pollster::block_on(self.msm_resident_async(bases, scalars, cfg))
    }

    /// MSM of scalars already on this device ([`Device::upload_scalars`]) over bases
    /// already on it: `sum_i scalars[i] * bases[i]` over the first `scalars.len()`
    /// bases (ICICLE's MSM with both inputs on the device). Nothing is uploaded but a
    /// parameter block a pass, and the MSM runs in as few passes as the device allows,
    /// so this is the device's own speed, with no host transfer in it.
    ///
    /// `cfg.memory_budget` counts both resident inputs first, then the working buffers.
    ///
    /// # Errors
    /// [`Error::WrongDevice`] when `bases` or `scalars` live on another device;
    /// [`Error::LengthMismatch`] when there are more scalars than bases;
    /// [`Error::PointNotOnCurve`]; [`Error::OutOfMemory`]; GPU errors as values.
    ///
    /// # Example
    /// ```no_run
    /// use ark_std::UniformRand;
    /// let mut rng = ark_std::test_rng();
    /// let bases: Vec<ark_bn254::G1Affine> = (0..1000).map(|_| ark_bn254::G1Affine::rand(&mut rng)).collect();
    /// let scalars: Vec<ark_bn254::Fr> = (0..1000).map(|_| ark_bn254::Fr::rand(&mut rng)).collect();
    /// let dev = &wgpu_msm::Device::all()?[0];
    /// let (b, s) = (dev.upload_bases(&bases)?, dev.upload_scalars(&scalars)?);
    /// let r = dev.msm_resident(&b, &s, &Default::default())?;
    /// # Ok::<(), wgpu_msm::Error>(())
    /// ```
    pub async fn msm_resident_async<C: Group>(
        &self,
        bases: &DeviceBases<C>,
        scalars: &DeviceScalars<C>,
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
        self.prepare_in_browser::<C>(cfg).await?;
        gpu::settled(run::on_device::run(self, bases, scalars, cfg).await).await
    }

    /// Blocking batch of MSMs over the same resident bases; see
    /// [`Device::msm_batch_async`].
    ///
    /// # Errors
    /// As [`Device::msm_batch_async`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn msm_batch<C: Group>(
        &self,
        bases: &DeviceBases<C>,
        batch: &[&[C::ScalarField]],
        cfg: &MsmConfig,
    ) -> Result<Vec<Projective<C>>> {
        pollster::block_on(self.msm_batch_async(bases, batch, cfg))
    }

    /// MSMs of several scalar sets over the same resident bases (a prover's batch), one
    /// result per set, in order. Set `k` multiplies the first `batch[k].len()` bases, so
    /// sets may be shorter than the bases (an empty set gives zero).
    ///
    /// The whole batch is one job: every pass of every set runs over the same working
    /// buffers and all results come back in one readback with one wait, so no host
    /// round trip separates the MSMs. Passes are submitted in groups of a few MiB of
    /// scalars, so that the device computes one group while the host writes the next
    /// (a batch of small MSMs is one submission). Memory is counted as for
    /// [`Device::msm_with_async`], plus one scalar slot per pass of the largest group.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for a set longer than the bases; otherwise as
    /// [`Device::msm_with_async`], for the whole batch.
    ///
    /// # Example
    /// ```no_run
    /// use ark_std::UniformRand;
    /// let mut rng = ark_std::test_rng();
    /// let bases: Vec<ark_bn254::G1Affine> = (0..1000).map(|_| ark_bn254::G1Affine::rand(&mut rng)).collect();
    /// let sets: Vec<Vec<ark_bn254::Fr>> = (0..4)
    ///     .map(|_| (0..1000).map(|_| ark_bn254::Fr::rand(&mut rng)).collect())
    ///     .collect();
    /// let dev = &wgpu_msm::Device::all()?[0];
    /// let srs = dev.upload_bases(&bases)?;
    /// let refs: Vec<&[ark_bn254::Fr]> = sets.iter().map(Vec::as_slice).collect();
    /// let commitments = pollster::block_on(dev.msm_batch_async(&srs, &refs, &Default::default()))?;
    /// assert_eq!(commitments.len(), 4);
    /// # Ok::<(), wgpu_msm::Error>(())
    /// ```
    pub async fn msm_batch_async<C: Group>(
        &self,
        bases: &DeviceBases<C>,
        batch: &[&[C::ScalarField]],
        cfg: &MsmConfig,
    ) -> Result<Vec<Projective<C>>> {
        self.prepare_in_browser::<C>(cfg).await?;
        gpu::settled(run::batch::run(self, bases, batch, cfg).await).await
    }

    /// Builds every kernel the MSMs of group `C` under `cfg` may take on this device
    /// (the MSM's, the fold sizing's, the on-curve check's and the base expansion's),
    /// where they are not built yet. The first MSM builds the kernels it takes anyway;
    /// this moves the wait to a moment the caller picks. In a browser the build does
    /// not block, and must happen before the blocking [`Device::upload_bases`]; the
    /// async calls do it.
    ///
    /// # Errors
    /// [`Error::KernelBuild`] when the driver (or the browser) rejects a kernel;
    /// [`Error::InvalidConfig`] for a multiply path the device cannot run.
    pub async fn prepare_async<C: Group>(&self, cfg: &MsmConfig) -> Result<()> {
        let state = self.msm_state()?;
        let paths = [
            self.resolve_arithmetic(cfg.arithmetic)?,
            self.resolve_arithmetic(Arithmetic::Auto)?,
        ];
        let mut kinds = vec![
            ShaderKind::Msm,
            ShaderKind::CheckBases,
            ShaderKind::ExpandBases,
        ];
        if state.tuning().fold_indirect {
            kinds.push(ShaderKind::FoldArgs);
        }
        // The base expansion only where `cfg` splits scalars (the default); a group
        // without some shader never takes it.
        let glv = plan::Layout::glv_asked(C::ID, cfg);
        kinds.retain(|&k| k.exists_for(C::ID) && (k != ShaderKind::ExpandBases || glv));
        for path in paths {
            for &kind in &kinds {
                #[cfg(target_arch = "wasm32")]
                state.kernels_async(self, C::ID, kind, path).await?;
                #[cfg(not(target_arch = "wasm32"))]
                state.kernels(self, C::ID, kind, path)?;
            }
        }
        Ok(())
    }

    /// [`Device::prepare_async`] in a browser, where the blocking build is not there;
    /// nothing natively (the kernels are built on first use, as before).
    #[cfg_attr(
        not(target_arch = "wasm32"),
        allow(clippy::extra_unused_type_parameters)
    )]
    async fn prepare_in_browser<C: Group>(&self, cfg: &MsmConfig) -> Result<()> {
        #[cfg(target_arch = "wasm32")]
        self.prepare_async::<C>(cfg).await?;
        let _ = cfg;
        Ok(())
    }

    /// [`Device::upload_bases`] as a future: in a browser it builds the kernels of the
    /// on-curve check first (without blocking) and waits for the scopes of the
    /// upload's allocations; natively it is [`Device::upload_bases`].
    ///
    /// # Errors
    /// As [`Device::upload_bases`]; [`Error::KernelBuild`] as
    /// [`Device::prepare_async`].
    pub async fn upload_bases_async<C: Group>(
        &self,
        bases: &[Affine<C>],
    ) -> Result<DeviceBases<C>> {
        self.prepare_in_browser::<C>(&MsmConfig::default()).await?;
        gpu::settled(self.upload_bases(bases)).await
    }

    /// Whether the MSM kernels read one-shot inputs straight from the host-visible
    /// buffers the host writes them into, without a copy into device memory first
    /// (where [`DeviceInfo::mappable_storage`](crate::device::DeviceInfo) allows it and the
    /// tuning asks for it).
    pub fn uploads_in_place(&self) -> bool {
        self.msm_state()
            .is_ok_and(|s| s.tuning().direct_uploads.scalars())
    }

    /// Stage timings of the last MSM run on this device with `MsmConfig::profile` set.
    pub fn last_profile(&self) -> Option<StageProfile> {
        self.msm_state()
            .ok()?
            .profile
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// The largest MSM pass a device takes (see [`Device::pass_capacity`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassCapacity {
    /// Points in one pass.
    pub points: usize,
    /// Device bytes such a pass allocates (working buffers and two input slots).
    pub bytes: u64,
}

/// MSM on the calling thread's active device (ICICLE style; see
/// [`crate::device::set_device`] and [`crate::device::run_on_device`]).
///
/// # Errors
/// [`Error::NoDevice`] when no device exists; otherwise as [`Device::msm`].
#[cfg(not(target_arch = "wasm32"))]
pub fn msm<C: Group>(
    bases: &[Affine<C>],
    scalars: &[C::ScalarField],
    cfg: &MsmConfig,
) -> Result<Projective<C>> {
    crate::device::active_device()?.msm(bases, scalars, cfg)
}
