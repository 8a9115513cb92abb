//! Bases resident on one device: uploaded once, checked on the device, reused by every
//! MSM over them (a prover's SRS).

use crate::config::{MsmConfig, MulPath};
use crate::curve::{Group, GroupId};
use crate::device::gpu;
use crate::device::pipeline::Kernels;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::msm::plan::Layout;
use crate::msm::resident::segments::{per_segment, Segments};
use crate::msm::run::job::Job;
use crate::shader::ShaderKind;
use ark_ec::short_weierstrass::Affine;
use std::marker::PhantomData;
use std::sync::Arc;

/// Bytes reserved per segment in the flag buffer (the storage-offset alignment).
pub(crate) const FLAG_STRIDE: u64 = 256;

/// Affine bases of group `C` (BN254 G1 by default) stored on one device, in segments
/// that each fit one binding. Freed on drop. Using them with another device is an
/// [`crate::error::Error::WrongDevice`].
///
/// Stored expanded by default: each base beside its image under the GLV endomorphism
/// (128 bytes a point for BN254 G1, 192 for BLS12-381 G1), the layout MSMs that split
/// their scalars read (see [`MsmConfig::glv`]); half that when uploaded with
/// `glv: Some(false)`. Bases are checked on the device to be on the curve, not to be in
/// the prime-order subgroup (see [`Group`]).
pub struct DeviceBases<C: Group = ark_bn254::g1::Config> {
    pub(crate) store: Segments,
    /// Whether each base is stored beside its image (`plan::Layout::expanded`).
    pub(crate) expanded: bool,
    /// One word per segment (at FLAG_STRIDE): index of an off-curve base, or u32::MAX.
    pub(crate) flags: wgpu::Buffer,
    pub(crate) group: PhantomData<fn() -> C>,
}

impl<C: Group> std::fmt::Debug for DeviceBases<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceBases")
            .field("group", &C::ID)
            .field("len", &self.len())
            .field("device_uid", &self.device_uid())
            .field("expanded", &self.expanded)
            .finish()
    }
}

impl<C: Group> DeviceBases<C> {
    /// Number of bases.
    pub fn len(&self) -> usize {
        self.store.len
    }

    /// Whether there are no bases.
    pub fn is_empty(&self) -> bool {
        self.store.len == 0
    }

    /// Uid of the device holding them.
    pub fn device_uid(&self) -> u64 {
        self.store.device_uid
    }

    /// Bytes held on the device.
    pub fn device_bytes(&self) -> u64 {
        self.point_bytes() * self.store.len as u64
    }

    /// Whether each base is stored beside its endomorphism image (for GLV MSMs).
    pub fn expanded(&self) -> bool {
        self.expanded
    }

    /// Device bytes of one point (64, or 128 expanded).
    pub(crate) fn point_bytes(&self) -> u64 {
        point_bytes(C::ID, self.expanded)
    }

    /// The `n` bases from global index `first` (which lie in one segment), as a binding.
    pub(crate) fn binding(&self, first: usize, n: usize) -> wgpu::BufferBinding<'_> {
        self.store.binding(self.point_bytes(), first, n)
    }

    /// Records the copy of every segment's on-curve flag into `job`'s readback (flag
    /// `s` of the job is segment `s`'s).
    pub(crate) fn copy_flags(&self, job: &Job<'_>, enc: &mut wgpu::CommandEncoder) {
        for seg in 0..self.store.buffers.len() {
            job.copy_flag(enc, seg, &self.flags, FLAG_STRIDE * seg as u64);
        }
    }

    /// The first base off the curve that `copy_flags`'s words report, as an error.
    pub(crate) fn check_flags(&self, flags: &[u32]) -> Result<()> {
        crate::msm::run::job::check_flags(flags, |seg| seg * self.store.per)
    }

    /// (segment, first point, points) of every segment.
    pub(crate) fn segment_ranges(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        self.store.ranges()
    }
}

/// Device bytes of one resident point, `expanded` (beside its image) or not.
pub(crate) fn point_bytes(group: GroupId, expanded: bool) -> u64 {
    if expanded {
        2 * group.base_bytes()
    } else {
        group.base_bytes()
    }
}

impl Device {
    /// Uploads `bases` to this device, where they stay until the handle is dropped, and
    /// checks on the device that each is on the curve (reported by the first MSM).
    /// Each is stored beside its endomorphism image (computed on the device), for GLV
    /// MSMs; see [`Device::upload_bases_with`] to choose.
    ///
    /// # Errors
    /// [`crate::error::Error::OutOfMemory`] when the device cannot hold them;
    /// [`crate::error::Error::PointNotOnCurve`] for a non-infinity base stored as (0, 0).
    pub fn upload_bases<C: Group>(&self, bases: &[Affine<C>]) -> Result<DeviceBases<C>> {
        self.upload_bases_as(bases, Layout::glv_asked(C::ID, &MsmConfig::default()))
    }

    fn upload_bases_as<C: Group>(
        &self,
        bases: &[Affine<C>],
        expanded: bool,
    ) -> Result<DeviceBases<C>> {
        // Segments sized for the stored form (expanded or not), uploaded raw.
        let per = per_segment(self, point_bytes(C::ID, expanded));
        let write = crate::msm::memory::upload::write_bases::<C>;
        let store = Segments::upload(self, "msm/bases", bases, per, C::ID.base_bytes(), write)?;
        let flags = gpu::create_buffer(
            &self.inner.device,
            "msm/base-flags",
            FLAG_STRIDE * store.buffers.len() as u64,
            gpu::STORAGE,
        )?;
        let mut out = DeviceBases {
            store,
            expanded: false,
            flags,
            group: PhantomData,
        };
        self.check_bases(&mut out, expanded)?;
        Ok(out)
    }

    /// [`Device::upload_bases`] within `cfg.memory_budget` (else the device's default,
    /// [`Tuning::memory_budget`](crate::msm::Tuning::memory_budget)), stored expanded unless
    /// `cfg.glv` is `Some(false)`: the bases (for BN254 G1 128 bytes each on the device
    /// expanded, 64 otherwise; BLS12-381 G1 192 and 96) must fit the budget. They count against the budget of every MSM over
    /// them too: [`Device::msm_with`] plans its working buffers in what the budget leaves
    /// after the bases, so one budget bounds the SRS and the MSMs over it together.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] (bytes needed, the budget) when the bases exceed the
    /// budget; otherwise as [`Device::upload_bases`].
    pub fn upload_bases_with<C: Group>(
        &self,
        bases: &[Affine<C>],
        cfg: &MsmConfig,
    ) -> Result<DeviceBases<C>> {
        let expanded = Layout::glv_asked(C::ID, cfg);
        let needed = point_bytes(C::ID, expanded) * bases.len() as u64;
        let budget = cfg.memory_budget.or(self.tuning()?.memory_budget);
        match budget {
            Some(budget) if needed > budget => Err(Error::OutOfMemory {
                requested: needed,
                available: budget,
            }),
            _ => self.upload_bases_as(bases, expanded),
        }
    }

    /// Enqueues the on-curve check of every segment; results land in `bases.flags`.
    /// With `expand`, the check also writes each segment's expanded form (each base
    /// beside its image), which replaces the segment once the submission has read it.
    fn check_bases<C: Group>(&self, bases: &mut DeviceBases<C>, expand: bool) -> Result<()> {
        let path = self.resolve_arithmetic(crate::config::Arithmetic::Auto)?;
        let k = if expand {
            self.expand_kernels(C::ID, path)?
        } else {
            self.check_kernels(C::ID, path)?
        };
        let init = vec![u32::MAX; (FLAG_STRIDE / 4) as usize * bases.store.buffers.len()];
        self.inner
            .queue
            .write_buffer(&bases.flags, 0, bytemuck::cast_slice(&init));
        let mut enc = self
            .inner
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("msm/check"),
            });
        let mut expanded = Vec::new();
        for (s, _, n) in bases.segment_ranges() {
            let points = bases.store.buffers[s].as_entire_buffer_binding();
            let flag = wgpu::BufferBinding {
                buffer: &bases.flags,
                offset: FLAG_STRIDE * s as u64,
                size: wgpu::BufferSize::new(FLAG_STRIDE),
            };
            if expand {
                let out = gpu::create_buffer(
                    &self.inner.device,
                    "msm/bases-expanded",
                    2 * C::ID.base_bytes() * n.max(1) as u64,
                    gpu::STORAGE,
                )?;
                let to = out.as_entire_buffer_binding();
                self.encode_expand(&k, &mut enc, points, flag, to, n)?;
                expanded.push(out);
            } else {
                self.encode_check(&k, &mut enc, points, flag, n)?;
            }
        }
        self.inner.queue.submit([enc.finish()]);
        if expand {
            // The raw segments are freed once the submission that reads them is done.
            bases.store.buffers = expanded;
            bases.expanded = true;
        }
        Ok(())
    }

    /// The kernels of the on-curve check on multiply path `path` (a streamed MSM's
    /// own: Wide64 checks a base several times faster than Portable32).
    pub(crate) fn check_kernels(&self, group: GroupId, path: MulPath) -> Result<Arc<Kernels>> {
        self.msm_state()?
            .kernels(self, group, ShaderKind::CheckBases, path)
    }

    /// The kernels of the on-curve check that also expands the bases
    /// (`expand_bases.wgsl`) on multiply path `path`.
    pub(crate) fn expand_kernels(&self, group: GroupId, path: MulPath) -> Result<Arc<Kernels>> {
        self.msm_state()?
            .kernels(self, group, ShaderKind::ExpandBases, path)
    }

    /// Records the on-curve check of the `n` bases bound by `points` into `enc`, and
    /// their expanded form (each base, then its image) into `out`: as
    /// [`Device::encode_check`], with `expand_bases.wgsl`.
    pub(crate) fn encode_expand(
        &self,
        k: &Kernels,
        enc: &mut wgpu::CommandEncoder,
        points: wgpu::BufferBinding<'_>,
        flag: wgpu::BufferBinding<'_>,
        out: wgpu::BufferBinding<'_>,
        n: usize,
    ) -> Result<()> {
        self.encode_points_kernel(k, "expand_bases", enc, &[points, flag, out], n)
    }

    /// Records the on-curve check of the `n` bases bound by `points` into `enc`: the
    /// index (within `points`) of the first base off the curve lands in `flag`'s first
    /// word, which must hold u32::MAX before.
    pub(crate) fn encode_check(
        &self,
        k: &Kernels,
        enc: &mut wgpu::CommandEncoder,
        points: wgpu::BufferBinding<'_>,
        flag: wgpu::BufferBinding<'_>,
        n: usize,
    ) -> Result<()> {
        self.encode_points_kernel(k, "check_bases", enc, &[points, flag], n)
    }

    /// Records `entry` of `k` over `n` points, its bindings 0, 1, ... bound to
    /// `bindings` in order.
    fn encode_points_kernel(
        &self,
        k: &Kernels,
        entry: &str,
        enc: &mut wgpu::CommandEncoder,
        bindings: &[wgpu::BufferBinding<'_>],
        n: usize,
    ) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let dev = &self.inner.device;
        let entries: Vec<wgpu::BindGroupEntry<'_>> = bindings
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: wgpu::BindingResource::Buffer(b.clone()),
            })
            .collect();
        let label = format!("msm/{entry}");
        let bg = gpu::checked(dev, "msm/check bind group", || {
            dev.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&label),
                layout: &k.layout,
                entries: &entries,
            })
        })?;
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(&label),
            timestamp_writes: None,
        });
        pass.set_pipeline(k.get(entry));
        pass.set_bind_group(0, &bg, &[]);
        let (x, y) = crate::msm::stages::grid(n as u64, self.info().max_workgroups_per_dimension);
        pass.dispatch_workgroups(x, y, 1);
        Ok(())
    }
}
