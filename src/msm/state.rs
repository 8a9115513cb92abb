//! Per-device MSM state, held in the device's extension slot: compiled kernels (built
//! once, lazily, per multiply path) and pools of working buffers and input arenas reused
//! across calls, so a second MSM of the same shape compiles and allocates nothing.

use crate::config::MulPath;
use crate::device::gpu;
use crate::device::pipeline::Kernels;
use crate::device::{Device, DeviceInfo};
use crate::error::Result;
use crate::msm::kernels::KernelCache;
use crate::msm::memory::arena::{Arena, ArenaKey};
use crate::msm::memory::pool::{Lease, Pool, Pooled};
use crate::msm::memory::working::Working;
use crate::msm::plan::Plan;
use crate::shader::ShaderKind;
use std::sync::{Arc, Mutex};

/// A readback buffer (MAP_READ), pooled by size so that a job allocates nothing (a
/// buffer freed and allocated again per call cost the host milliseconds per MSM). It
/// goes back to the pool only once its job has read it and unmapped it: a job dropped
/// mid-way may leave a mapping pending.
pub(crate) struct Readback {
    pub(crate) buffer: wgpu::Buffer,
    pub(crate) done: std::sync::atomic::AtomicBool,
}

impl Pooled for Readback {
    type Key = u64;
    fn key(&self) -> u64 {
        self.buffer.size()
    }
    fn reusable(&self) -> bool {
        self.done.load(std::sync::atomic::Ordering::Acquire)
    }
}

/// What the MSM keeps per device (in the device's extension slot, see
/// [`Device::msm_state`]).
pub(crate) struct DeviceState {
    kernels: KernelCache,
    working: Pool<Working>,
    arenas: Pool<Arena>,
    readbacks: Pool<Readback>,
    pub(crate) profile: Mutex<Option<crate::msm::StageProfile>>,
    uploads: std::sync::OnceLock<Option<Arc<rayon::ThreadPool>>>,
    /// What this device's kernels read straight from the upload buffers.
    pub(crate) direct: crate::msm::memory::staging::DirectUploads,
    /// Whether the polling thread retires each MSM submission
    /// (`tuning::retire_on_poller`).
    pub(crate) retire_on_poller: bool,
    /// Whether passes size their fold steps on the device and dispatch them indirectly
    /// (`tuning::fold_indirect`, where the device has indirect execution).
    pub(crate) fold_indirect: bool,
}

impl DeviceState {
    /// The state of a new device described by `info`.
    fn new(info: &DeviceInfo) -> DeviceState {
        let direct = crate::msm::memory::staging::DirectUploads::for_device(info);
        DeviceState {
            kernels: KernelCache::default(),
            working: Pool::new(crate::msm::plan::tuning::pool_keep()),
            arenas: Pool::new(crate::msm::plan::tuning::pool_keep()),
            readbacks: Pool::new(crate::msm::plan::tuning::pool_keep()),
            profile: Mutex::new(None),
            uploads: std::sync::OnceLock::new(),
            direct,
            retire_on_poller: match crate::msm::plan::tuning::retire_on_poller() {
                1 => false,
                2 => true,
                _ => !info.software,
            },
            fold_indirect: info.indirect_dispatch && crate::msm::plan::tuning::fold_indirect() == 2,
        }
    }

    /// The kernels of `kind` for `path` on `dev`, compiled on first use.
    pub(crate) fn kernels(
        &self,
        dev: &Device,
        kind: ShaderKind,
        path: MulPath,
    ) -> Result<Arc<Kernels>> {
        self.kernels.get(dev, kind, path)
    }

    /// This device's upload threads (`upload::max_threads`), started on first use: a
    /// one-shot MSM's streamed uploads run there, so that the streams of a cluster's
    /// devices do not queue behind each other's pieces in one pool. `None` if the
    /// threads cannot be started (uploads then run on rayon's global pool).
    pub(crate) fn upload_pool(&self) -> Option<Arc<rayon::ThreadPool>> {
        self.uploads
            .get_or_init(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(crate::msm::memory::upload::max_threads())
                    .thread_name(|i| format!("wgpu-msm-upload-{i}"))
                    .build()
                    .map(Arc::new)
                    .ok()
            })
            .clone()
    }

    /// A working set for `plan`, from the pool when one matches, else newly allocated;
    /// back in the pool when the lease drops.
    pub(crate) fn take_working(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        plan: &Plan,
    ) -> Result<Lease<'_, Working>> {
        self.or_freed(|| {
            self.working
                .lease(plan, || Working::new(device, queue, plan))
        })
    }

    /// `take()`, and when it fails (a device out of memory), again after dropping every
    /// idle working set, arena and readback buffer of this device.
    fn or_freed<T>(&self, take: impl Fn() -> Result<T>) -> Result<T> {
        take().or_else(|e| {
            log::debug!("allocation failed ({e}); freeing the idle buffers and retrying");
            self.working.clear();
            self.arenas.clear();
            self.readbacks.clear();
            take()
        })
    }

    /// A readback buffer of at least `bytes` (sizes rounded up to a power of two, at
    /// least 4 KiB), pooled like the working sets.
    pub(crate) fn take_readback(
        &self,
        device: &wgpu::Device,
        bytes: u64,
    ) -> Result<Lease<'_, Readback>> {
        let size = bytes.max(4096).next_power_of_two();
        let lease = self.readbacks.lease(&size, || {
            let buffer = gpu::create_buffer(
                device,
                "msm/readback",
                size,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            )?;
            Ok::<_, crate::error::Error>(Readback {
                buffer,
                done: false.into(),
            })
        })?;
        lease
            .done
            .store(false, std::sync::atomic::Ordering::Release);
        Ok(lease)
    }

    /// Input slots of shape `key`, pooled like the working sets.
    pub(crate) fn take_arena(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        key: ArenaKey,
    ) -> Result<Lease<'_, Arena>> {
        self.or_freed(|| {
            self.arenas
                .lease(&key, || Arena::new(device, queue, key, self.direct))
        })
    }
}

impl Device {
    /// The MSM's state for this device, made on first use.
    pub(crate) fn msm_state(&self) -> &DeviceState {
        self.extension(|| DeviceState::new(self.info()))
    }
}
