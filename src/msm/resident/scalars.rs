//! Scalars resident on one device (ICICLE's `are_scalars_on_device`): uploaded once, or
//! kept where a prover's earlier GPU work left them, and read in place by MSMs over
//! resident bases, which then send nothing to the device but a parameter block a pass.

use crate::device::Device;
use crate::error::Result;
use crate::msm::plan::SCALAR_BYTES;
use crate::msm::resident::segments::{per_segment, Segments};
use ark_bn254::Fr;

/// BN254 scalars stored on one device (32 bytes each, in arkworks' Montgomery form), in
/// segments that each fit one binding. Freed on drop. Using them with another device is
/// an [`crate::error::Error::WrongDevice`].
pub struct DeviceScalars {
    pub(crate) store: Segments,
}

impl DeviceScalars {
    /// Number of scalars.
    pub fn len(&self) -> usize {
        self.store.len
    }

    /// Whether there are no scalars.
    pub fn is_empty(&self) -> bool {
        self.store.len == 0
    }

    /// Uid of the device holding them.
    pub fn device_uid(&self) -> u64 {
        self.store.device_uid
    }

    /// Bytes held on the device.
    pub fn device_bytes(&self) -> u64 {
        SCALAR_BYTES * self.store.len as u64
    }

    /// The `n` scalars from `first` (which lie in one segment), as a binding.
    pub(crate) fn binding(&self, first: usize, n: usize) -> wgpu::BufferBinding<'_> {
        self.store.binding(SCALAR_BYTES, first, n)
    }
}

impl Device {
    /// Uploads `scalars` to this device, where they stay until the handle is dropped;
    /// [`Device::msm_resident`] multiplies them with resident bases without sending
    /// them again (for a prover that commits to the same polynomial more than once,
    /// or a benchmark of the device alone).
    ///
    /// # Errors
    /// [`crate::error::Error::OutOfMemory`] (or a GPU error) when the device cannot hold them.
    pub fn upload_scalars(&self, scalars: &[Fr]) -> Result<DeviceScalars> {
        let per = per_segment(self, SCALAR_BYTES);
        let write = crate::msm::memory::upload::write_scalars;
        let label = "msm/resident-scalars";
        Ok(DeviceScalars {
            store: Segments::upload(self, label, scalars, per, SCALAR_BYTES, write)?,
        })
    }
}
