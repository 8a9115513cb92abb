//! Bases resident on one device: uploaded once, checked on the device, reused by every
//! MSM over them (a prover's SRS).

use super::plan::{BASE_BYTES, MAX_PASS_LOG2};
use crate::config::MulPath;
use crate::device::Device;
use crate::error::Result;
use crate::gpu;
use crate::shader::ShaderKind;
use ark_bn254::G1Affine;

/// Bytes reserved per segment in the flag buffer (the storage-offset alignment).
pub(crate) const FLAG_STRIDE: u64 = 256;

/// Affine bases stored on one device, in segments that each fit one binding. Freed on
/// drop. Using them with another device is an [`crate::Error::WrongDevice`].
pub struct DeviceBases {
    pub(crate) device_uid: u64,
    pub(crate) segments: Vec<wgpu::Buffer>,
    /// Points per full segment (a power of two).
    pub(crate) segment_points: usize,
    pub(crate) len: usize,
    /// One word per segment (at FLAG_STRIDE): index of an off-curve base, or u32::MAX.
    pub(crate) flags: wgpu::Buffer,
}

impl DeviceBases {
    /// Number of bases.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no bases.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Uid of the device holding them.
    pub fn device_uid(&self) -> u64 {
        self.device_uid
    }

    /// Bytes held on the device.
    pub fn device_bytes(&self) -> u64 {
        BASE_BYTES * self.len as u64
    }

    /// (segment, first point, points) of every segment.
    pub(crate) fn segment_ranges(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        (0..self.segments.len()).map(move |s| {
            let first = s * self.segment_points;
            (s, first, (self.len - first).min(self.segment_points))
        })
    }
}

/// Points per segment on `dev`: the largest power of two whose bytes fit one binding.
pub(crate) fn segment_points(dev: &Device) -> usize {
    let info = dev.info();
    let max = info.max_storage_binding.min(info.max_buffer_size) / BASE_BYTES;
    let lg = (63 - max.max(64).leading_zeros()).min(MAX_PASS_LOG2);
    1usize << lg
}

impl Device {
    /// Uploads `bases` to this device, where they stay until the handle is dropped, and
    /// checks on the device that each is on the curve (reported by the first MSM).
    ///
    /// # Errors
    /// [`crate::Error::OutOfMemory`] when the device cannot hold them;
    /// [`crate::Error::PointNotOnCurve`] for a non-infinity base stored as (0, 0).
    pub fn upload_bases(&self, bases: &[G1Affine]) -> Result<DeviceBases> {
        let dev = &self.inner.device;
        let seg = segment_points(self);
        let nseg = bases.len().div_ceil(seg).max(1);
        let flags = gpu::create_buffer(
            dev,
            "msm/base-flags",
            FLAG_STRIDE * nseg as u64,
            gpu::STORAGE,
        )?;
        let mut segments = Vec::with_capacity(nseg);
        for s in 0..nseg {
            let chunk = &bases[(s * seg).min(bases.len())..((s + 1) * seg).min(bases.len())];
            let buf = gpu::create_buffer(
                dev,
                "msm/bases",
                BASE_BYTES * chunk.len().max(1) as u64,
                gpu::STORAGE,
            )?;
            super::upload::write_bases(&self.inner.queue, &buf, chunk)?;
            segments.push(buf);
        }
        let out = DeviceBases {
            device_uid: self.uid(),
            segments,
            segment_points: seg,
            len: bases.len(),
            flags,
        };
        self.check_bases(&out)?;
        Ok(out)
    }

    /// Enqueues the on-curve check of every segment; results land in `bases.flags`.
    fn check_bases(&self, bases: &DeviceBases) -> Result<()> {
        let dev = &self.inner.device;
        let k = self
            .inner
            .msm
            .kernels(dev, ShaderKind::CheckBases, MulPath::Portable32)?;
        let init = vec![u32::MAX; (FLAG_STRIDE / 4) as usize * bases.segments.len()];
        self.inner
            .queue
            .write_buffer(&bases.flags, 0, bytemuck::cast_slice(&init));
        let mut enc = dev.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("msm/check"),
        });
        for (s, _, n) in bases.segment_ranges() {
            if n == 0 {
                continue;
            }
            let bg = gpu::checked(dev, "msm/check bind group", || {
                dev.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("msm/check"),
                    layout: &k.layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: bases.segments[s].as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                                buffer: &bases.flags,
                                offset: FLAG_STRIDE * s as u64,
                                size: wgpu::BufferSize::new(FLAG_STRIDE),
                            }),
                        },
                    ],
                })
            })?;
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("msm/check_bases"),
                timestamp_writes: None,
            });
            pass.set_pipeline(k.get("check_bases"));
            pass.set_bind_group(0, &bg, &[]);
            let (x, y) = super::pass::grid(n as u64, self.info().max_workgroups_per_dimension);
            pass.dispatch_workgroups(x, y, 1);
        }
        self.inner.queue.submit([enc.finish()]);
        Ok(())
    }
}
