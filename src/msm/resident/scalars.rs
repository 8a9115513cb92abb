//! Scalars resident on one device (ICICLE's `are_scalars_on_device`): uploaded once, or
//! kept where a prover's earlier GPU work left them, and read in place by MSMs over
//! resident bases, which then send nothing to the device but a parameter block a pass.

use crate::curve::Group;
use crate::device::Device;
use crate::error::Result;
use crate::msm::resident::segments::{per_segment, Segments};
use std::marker::PhantomData;

/// Scalars of group `C` (BN254 G1 by default) stored on one device (32 bytes each, in
/// arkworks' Montgomery form), in
/// segments that each fit one binding. Freed on drop. Using them with another device is
/// an [`crate::error::Error::WrongDevice`].
pub struct DeviceScalars<C: Group = ark_bn254::g1::Config> {
    pub(crate) store: Segments,
    pub(crate) group: PhantomData<fn() -> C>,
}

impl<C: Group> std::fmt::Debug for DeviceScalars<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceScalars")
            .field("group", &C::ID)
            .field("len", &self.len())
            .field("device_uid", &self.device_uid())
            .finish()
    }
}

impl<C: Group> DeviceScalars<C> {
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
        C::ID.scalar_bytes() * self.store.len as u64
    }

    /// The `n` scalars from `first` (which lie in one segment), as a binding.
    pub(crate) fn binding(&self, first: usize, n: usize) -> wgpu::BufferBinding<'_> {
        self.store.binding(C::ID.scalar_bytes(), first, n)
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
    pub fn upload_scalars<C: Group>(&self, scalars: &[C::ScalarField]) -> Result<DeviceScalars<C>> {
        let item = C::ID.scalar_bytes();
        let per = per_segment(self, item);
        let write = crate::msm::memory::upload::write_scalars::<C>;
        let label = "msm/resident-scalars";
        Ok(DeviceScalars {
            store: Segments::upload(self, label, scalars, per, item, write)?,
            group: PhantomData,
        })
    }
}
