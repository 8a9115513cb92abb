//! Items resident on one device in segments, each segment one buffer within one
//! binding: the storage of [`crate::msm::DeviceBases`] and [`crate::msm::DeviceScalars`].

use crate::device::gpu;
use crate::device::Device;
use crate::error::Result;
use crate::msm::memory::upload::Spread;
use crate::msm::plan::MAX_PASS_LOG2;

/// Items stored on one device, `per` to a buffer (the last buffer shorter, one empty
/// buffer for none). Freed on drop.
pub(crate) struct Segments {
    /// Uid of the device holding them.
    pub(crate) device_uid: u64,
    pub(crate) buffers: Vec<wgpu::Buffer>,
    /// Items per full buffer (a power of two).
    pub(crate) per: usize,
    /// Items in all buffers.
    pub(crate) len: usize,
}

impl Segments {
    /// Uploads `items` into buffers of `per` items each, `item` bytes an item, each
    /// written by `write` (through wgpu's per-write staging).
    pub(crate) fn upload<T>(
        dev: &Device,
        label: &str,
        items: &[T],
        per: usize,
        item: u64,
        write: fn(&wgpu::Queue, &wgpu::Buffer, u64, &[T], Spread) -> Result<()>,
    ) -> Result<Segments> {
        let spread = Spread::of(&dev.tuning()?);
        // Counted among the devices uploading, for the host's thread share.
        let _uploading = dev.msm_state()?.uploading();
        let count = items.len().div_ceil(per).max(1);
        let buffers = (0..count)
            .map(|s| {
                let part = &items[(s * per).min(items.len())..((s + 1) * per).min(items.len())];
                let size = item * part.len().max(1) as u64;
                let buf = gpu::create_buffer(&dev.inner.device, label, size, gpu::STORAGE)?;
                write(&dev.inner.queue, &buf, 0, part, spread)?;
                Ok(buf)
            })
            .collect::<Result<_>>()?;
        Ok(Segments {
            device_uid: dev.uid(),
            buffers,
            per,
            len: items.len(),
        })
    }

    /// The `n` items from `first` (which lie in one buffer), `item` bytes each, as a
    /// binding.
    pub(crate) fn binding(&self, item: u64, first: usize, n: usize) -> wgpu::BufferBinding<'_> {
        let seg = first / self.per;
        debug_assert!(first + n <= (seg + 1) * self.per, "a range across segments");
        wgpu::BufferBinding {
            buffer: &self.buffers[seg],
            offset: item * (first - seg * self.per) as u64,
            size: wgpu::BufferSize::new(item * n as u64),
        }
    }

    /// (segment, first item, items) of every segment.
    pub(crate) fn ranges(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        (0..self.buffers.len()).map(move |s| {
            let first = s * self.per;
            (s, first, (self.len - first).min(self.per))
        })
    }
}

/// Items per segment on `dev`: the largest power of two whose bytes (`item` each) fit
/// one binding.
pub(crate) fn per_segment(dev: &Device, item: u64) -> usize {
    let info = dev.info();
    let max = info.max_storage_binding.min(info.max_buffer_size) / item;
    let lg = (63 - max.max(64).leading_zeros()).min(MAX_PASS_LOG2);
    1usize << lg
}
