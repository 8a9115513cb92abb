//! Scalars resident on one device (ICICLE's `are_scalars_on_device`): uploaded once, or
//! kept where a prover's earlier GPU work left them, and read in place by MSMs over
//! resident bases, which then send nothing to the device but a parameter block a pass.

use super::plan::SCALAR_BYTES;
use crate::device::Device;
use crate::error::Result;
use ark_bn254::Fr;

/// BN254 scalars stored on one device (32 bytes each, in arkworks' Montgomery form), in
/// segments that each fit one binding. Freed on drop. Using them with another device is
/// an [`crate::Error::WrongDevice`].
pub struct DeviceScalars {
    pub(crate) device_uid: u64,
    pub(crate) segments: Vec<wgpu::Buffer>,
    /// Scalars per full segment (a power of two).
    pub(crate) segment_points: usize,
    pub(crate) len: usize,
}

impl DeviceScalars {
    /// Number of scalars.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no scalars.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Uid of the device holding them.
    pub fn device_uid(&self) -> u64 {
        self.device_uid
    }

    /// Bytes held on the device.
    pub fn device_bytes(&self) -> u64 {
        SCALAR_BYTES * self.len as u64
    }

    /// The `n` scalars from `first` (which lie in one segment), as a binding.
    pub(crate) fn binding(&self, first: usize, n: usize) -> wgpu::BufferBinding<'_> {
        let seg = first / self.segment_points;
        wgpu::BufferBinding {
            buffer: &self.segments[seg],
            offset: SCALAR_BYTES * (first - seg * self.segment_points) as u64,
            size: wgpu::BufferSize::new(SCALAR_BYTES * n as u64),
        }
    }
}

impl Device {
    /// Uploads `scalars` to this device, where they stay until the handle is dropped;
    /// [`Device::msm_resident`] multiplies them with resident bases without sending
    /// them again (for a prover that commits to the same polynomial more than once,
    /// or a benchmark of the device alone).
    ///
    /// # Errors
    /// [`crate::Error::OutOfMemory`] (or a GPU error) when the device cannot hold them.
    pub fn upload_scalars(&self, scalars: &[Fr]) -> Result<DeviceScalars> {
        let seg = super::bases::segment_points(self, SCALAR_BYTES);
        let write = super::upload::write_scalars;
        let label = "msm/resident-scalars";
        let segments =
            super::bases::upload_segments(self, label, scalars, seg, SCALAR_BYTES, write)?;
        Ok(DeviceScalars {
            device_uid: self.uid(),
            segments,
            segment_points: seg,
            len: scalars.len(),
        })
    }
}
