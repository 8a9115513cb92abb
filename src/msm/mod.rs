//! MSM on one device: `sum_i scalars[i] * bases[i]` over BN254 G1, with every Pippenger
//! stage in WGSL (see [`pass`]) and the result identical to arkworks'.

mod bases;
pub mod encode;
pub(crate) mod pass;
pub mod plan;
mod profile;
mod state;
mod upload;

pub use bases::DeviceBases;
pub use profile::StageProfile;
pub(crate) use state::DeviceState;

use crate::config::{Arithmetic, MsmConfig, MulPath};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::gpu;
use crate::shader::ShaderKind;
use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ff::Zero;
use encode::POINT_WORDS;
use pass::Params;
use plan::{DeviceLimits, BASE_BYTES};

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

    fn limits(&self) -> DeviceLimits {
        let i = self.info();
        DeviceLimits {
            max_binding: i.max_storage_binding,
            max_buffer: i.max_buffer_size,
            max_workgroups: i.max_workgroups_per_dimension,
        }
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
    pub fn msm(&self, bases: &[G1Affine], scalars: &[Fr], cfg: &MsmConfig) -> Result<G1Projective> {
        pollster::block_on(self.msm_async(bases, scalars, cfg))
    }

    /// MSM of host bases and scalars, as a future. Uploads the bases, runs every stage
    /// on the device and reads back a few sums per window.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`]; [`Error::PointNotOnCurve`] for a base off the curve;
    /// [`Error::OutOfMemory`] when even one chunk does not fit; GPU errors as values.
    pub async fn msm_async(
        &self,
        bases: &[G1Affine],
        scalars: &[Fr],
        cfg: &MsmConfig,
    ) -> Result<G1Projective> {
        if bases.len() != scalars.len() {
            return Err(Error::LengthMismatch {
                bases: bases.len(),
                scalars: scalars.len(),
            });
        }
        if bases.is_empty() {
            return Ok(G1Projective::zero());
        }
        let resident = self.upload_bases(bases)?;
        self.msm_with_async(&resident, scalars, cfg).await
    }

    /// Blocking MSM over bases already on this device; see [`Device::msm_with_async`].
    ///
    /// # Errors
    /// As [`Device::msm_with_async`].
    pub fn msm_with(
        &self,
        bases: &DeviceBases,
        scalars: &[Fr],
        cfg: &MsmConfig,
    ) -> Result<G1Projective> {
        pollster::block_on(self.msm_with_async(bases, scalars, cfg))
    }

    /// MSM over resident bases: no base upload per call.
    ///
    /// # Errors
    /// [`Error::WrongDevice`] when `bases` live on another device;
    /// [`Error::LengthMismatch`]; [`Error::PointNotOnCurve`]; GPU errors as values.
    pub async fn msm_with_async(
        &self,
        bases: &DeviceBases,
        scalars: &[Fr],
        cfg: &MsmConfig,
    ) -> Result<G1Projective> {
        self.check_owner("DeviceBases", bases.device_uid)?;
        if bases.len() != scalars.len() {
            return Err(Error::LengthMismatch {
                bases: bases.len(),
                scalars: scalars.len(),
            });
        }
        if scalars.is_empty() {
            return Ok(G1Projective::zero());
        }
        let started = std::time::Instant::now();
        let path = self.resolve_arithmetic(cfg.arithmetic)?;
        let plan = plan::choose(scalars.len(), cfg, &self.limits())?;
        let dev = &self.inner.device;
        let queue = &self.inner.queue;
        let kernels = self.inner.msm.kernels(dev, ShaderKind::Msm, path)?;
        let work = self.inner.msm.take_working(dev, queue, &plan)?;
        let state = &self.inner.msm;
        let guard = PoolGuard {
            state,
            work: Some(work),
        };
        let work = guard.work.as_ref().ok_or(Error::Cancelled)?;

        // Passes: every segment of the bases, cut into chunks of plan.capacity points.
        let cap = plan.capacity as usize;
        let mut passes: Vec<(usize, usize, usize)> = Vec::new(); // (segment, first, len)
        for (s, first, len) in bases.segment_ranges() {
            let mut off = 0;
            while off < len {
                passes.push((s, first + off, (len - off).min(cap)));
                off += cap;
            }
        }
        let sums_bytes: Vec<u64> = passes
            .iter()
            .map(|&(_, _, n)| Params::new(&plan, n as u32).group_sums_bytes())
            .collect();
        let flags_at: u64 = sums_bytes.iter().sum();
        let stamps_at = (flags_at + 4 * bases.segments.len() as u64).next_multiple_of(8);
        let profiling = cfg.profile && dev.features().contains(wgpu::Features::TIMESTAMP_QUERY);
        let nstamps = if profiling {
            2 * pass::STAGES.len() as u32 * passes.len() as u32
        } else {
            0
        };
        let staging_bytes = stamps_at + 8 * u64::from(nstamps);
        let queries = if profiling {
            let qs = dev.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("msm/timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count: nstamps,
            });
            let resolve = gpu::create_buffer(
                dev,
                "msm/timestamps-resolve",
                8 * u64::from(nstamps),
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            )?;
            Some((qs, resolve))
        } else {
            None
        };
        let mut upload_ms = 0.0;
        let staging = gpu::create_buffer(
            dev,
            "msm/readback",
            staging_bytes,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        )?;
        let max_x = self.info().max_workgroups_per_dimension;
        let mut out_off = 0u64;
        for (pi, &(s, first, n)) in passes.iter().enumerate() {
            let params = Params::new(&plan, n as u32);
            let t_up = std::time::Instant::now();
            upload::write_scalars(queue, &work.scalars, &scalars[first..first + n])?;
            queue.write_buffer(&work.params, 0, bytemuck::bytes_of(&params));
            upload_ms += t_up.elapsed().as_secs_f64() * 1e3;
            let seg_off = BASE_BYTES * (first - s * bases.segment_points) as u64;
            let bind = gpu::checked(dev, "msm bind group", || {
                fn entry(binding: u32, buffer: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
                    wgpu::BindGroupEntry {
                        binding,
                        resource: buffer.as_entire_binding(),
                    }
                }
                dev.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("msm/pass"),
                    layout: &kernels.layout,
                    entries: &[
                        entry(0, &work.params),
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                                buffer: &bases.segments[s],
                                offset: seg_off,
                                size: wgpu::BufferSize::new(BASE_BYTES * n as u64),
                            }),
                        },
                        entry(2, &work.scalars),
                        entry(3, &work.digits),
                        entry(4, &work.counts),
                        entry(5, &work.offsets),
                        entry(6, &work.sorted),
                        entry(7, &work.scratch),
                    ],
                })
            })?;
            let fold_bind = gpu::checked(dev, "msm fold bind group", || {
                dev.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("msm/fold-step"),
                    layout: &kernels.extra_layouts[0],
                    entries: &[wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &work.fold_steps,
                            offset: 0,
                            size: wgpu::BufferSize::new(4),
                        }),
                    }],
                })
            })?;
            let mut enc =
                dev.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("msm") });
            let stamps = queries
                .as_ref()
                .map(|(qs, _)| (qs, 2 * pass::STAGES.len() as u32 * pi as u32));
            pass::encode(
                &mut enc,
                &kernels,
                [&bind, &fold_bind],
                work,
                &params,
                max_x,
                &staging,
                out_off,
                stamps,
            );
            if pi + 1 == passes.len() {
                if let Some((qs, resolve)) = &queries {
                    enc.resolve_query_set(qs, 0..nstamps, resolve, 0);
                    enc.copy_buffer_to_buffer(
                        resolve,
                        0,
                        &staging,
                        stamps_at,
                        8 * u64::from(nstamps),
                    );
                }
                for seg in 0..bases.segments.len() {
                    let src = bases::FLAG_STRIDE * seg as u64;
                    enc.copy_buffer_to_buffer(
                        &bases.flags,
                        src,
                        &staging,
                        flags_at + 4 * seg as u64,
                        4,
                    );
                }
            }
            gpu::checked(dev, "msm submit", || queue.submit([enc.finish()]))?;
            out_off += sums_bytes[pi];
        }
        let out = gpu::read_words(self, &staging).await?;
        drop(guard);
        let t_combine = std::time::Instant::now();

        let flag_words = &out[(flags_at / 4) as usize..][..bases.segments.len()];
        for (seg, &f) in flag_words.iter().enumerate() {
            if f != u32::MAX {
                return Err(Error::PointNotOnCurve {
                    index: seg * bases.segment_points + f as usize,
                });
            }
        }
        let mut total = G1Projective::zero();
        let per_window = plan.groups_per_window as usize;
        let mut at = 0usize;
        for bytes in sums_bytes {
            let pts = (bytes / plan::POINT_BYTES) as usize;
            let window_sums: Vec<G1Projective> = (0..plan.num_windows as usize)
                .map(|w| {
                    (0..per_window)
                        .map(|g| encode::read_xyzz(&out[at + POINT_WORDS * (w * per_window + g)..]))
                        .sum()
                })
                .collect();
            total += encode::combine_windows(&window_sums, plan.window_bits);
            at += POINT_WORDS * pts;
        }
        if cfg.profile {
            let mut prof = StageProfile {
                upload_ms,
                ..Default::default()
            };
            let period = queue.get_timestamp_period();
            let ticks: Vec<u64> = out[(stamps_at / 4) as usize..]
                .chunks_exact(2)
                .map(|w| u64::from(w[0]) | (u64::from(w[1]) << 32))
                .collect();
            for pass_ticks in ticks.chunks_exact(2 * pass::STAGES.len()) {
                prof.add_pass(pass_ticks, period);
            }
            prof.combine_ms = t_combine.elapsed().as_secs_f64() * 1e3;
            prof.total_ms = started.elapsed().as_secs_f64() * 1e3;
            prof.passes = passes.len();
            *self
                .inner
                .msm
                .profile
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = Some(prof);
        }
        Ok(total)
    }
}

impl Device {
    /// Stage timings of the last MSM run on this device with `MsmConfig::profile` set.
    pub fn last_profile(&self) -> Option<StageProfile> {
        self.inner
            .msm
            .profile
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Device {
    /// MSMs of several scalar sets over the same resident bases (a prover's batch).
    ///
    /// Today this runs the sets one after another, reusing the compiled pipelines and
    /// pooled buffers; one submission for the whole batch is planned (issue 7).
    ///
    /// # Errors
    /// As [`Device::msm_with`], for the first set that fails.
    pub fn msm_batch(
        &self,
        bases: &DeviceBases,
        batch: &[&[Fr]],
        cfg: &MsmConfig,
    ) -> Result<Vec<G1Projective>> {
        batch.iter().map(|s| self.msm_with(bases, s, cfg)).collect()
    }
}

/// Returns a working set to its device's pool when the MSM ends, however it ends.
struct PoolGuard<'a> {
    state: &'a DeviceState,
    work: Option<state::Working>,
}

impl Drop for PoolGuard<'_> {
    fn drop(&mut self) {
        if let Some(w) = self.work.take() {
            self.state.put_working(w);
        }
    }
}

/// MSM on the calling thread's active device (ICICLE style; see
/// [`crate::set_device`] and [`crate::run_on_device`]).
///
/// # Errors
/// [`Error::NoDevice`] when no device exists; otherwise as [`Device::msm`].
pub fn msm(bases: &[G1Affine], scalars: &[Fr], cfg: &MsmConfig) -> Result<G1Projective> {
    crate::device::active_device()?.msm(bases, scalars, cfg)
}
