//! Per-device MSM state, held in the device's extension slot: compiled kernels (built
//! once, lazily, per multiply path) and pools of working buffers and input arenas reused
//! across calls, so a second MSM of the same shape compiles and allocates nothing.

use crate::config::MulPath;
use crate::curve::GroupId;
use crate::device::gpu;
use crate::device::pipeline::Kernels;
use crate::device::Device;
use crate::error::Result;
use crate::msm::kernels::KernelCache;
use crate::msm::memory::arena::{Arena, ArenaKey};
use crate::msm::memory::pool::{Lease, Pool, Pooled};
use crate::msm::memory::upload::{Spread, ThreadPool, Uploading, Uploads, HOST_UPLOADS};
use crate::msm::memory::working::Working;
use crate::msm::plan::tuning::Tuning;
use crate::msm::plan::Plan;
use crate::shader::ShaderKind;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex, RwLock};

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
    /// The upload threads and their count, started on first use.
    uploads: Mutex<Option<(usize, Option<Arc<ThreadPool>>)>>,
    /// This device's host-fed MSMs and resident uploads running now (`uploading`).
    uploading: AtomicUsize,
    tuning: RwLock<Tuning>,
}

impl DeviceState {
    /// The state of a new device, run with `tuning`.
    fn new(tuning: Tuning) -> DeviceState {
        DeviceState {
            kernels: KernelCache::default(),
            working: Pool::new(tuning.pool_keep),
            arenas: Pool::new(tuning.pool_keep),
            readbacks: Pool::new(tuning.pool_keep),
            profile: Mutex::new(None),
            uploads: Mutex::new(None),
            uploading: AtomicUsize::new(0),
            tuning: RwLock::new(tuning),
        }
    }

    /// The device's tuning now.
    pub(crate) fn tuning(&self) -> Tuning {
        self.tuning
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Runs the device with `tuning` from now on. The idle pooled buffers go (they were
    /// sized and laid out under the old tuning); buffers leased by running MSMs come
    /// back to pools that match them only by shape.
    fn set_tuning(&self, tuning: Tuning) {
        let pools: [&dyn Keep; 3] = [&self.working, &self.arenas, &self.readbacks];
        for pool in pools {
            pool.reset(tuning.pool_keep);
        }
        *self.tuning.write().unwrap_or_else(|e| e.into_inner()) = tuning;
    }

    /// The kernels of `kind` for `group` and `path` on `dev`, compiled on first use.
    pub(crate) fn kernels(
        &self,
        dev: &Device,
        group: GroupId,
        kind: ShaderKind,
        path: MulPath,
    ) -> Result<Arc<Kernels>> {
        let t = self.tuning();
        self.kernels.get(
            dev,
            group,
            kind,
            path,
            t.unroll_for(group),
            t.fq32,
            t.kernel_build_limit,
        )
    }

    /// [`DeviceState::kernels`] in a browser: built without blocking on first use.
    #[cfg(target_arch = "wasm32")]
    pub(crate) async fn kernels_async(
        &self,
        dev: &Device,
        group: GroupId,
        kind: ShaderKind,
        path: MulPath,
    ) -> Result<Arc<Kernels>> {
        let t = self.tuning();
        self.kernels
            .get_async(dev, group, kind, path, t.unroll_for(group), t.fq32)
            .await
    }

    /// Counts this device among the devices uploading from the host until the guard
    /// drops, so that each upload of every device takes its share of the host's
    /// threads (`HostUploads`): held by every [`Uploads`] and by resident uploads.
    pub(crate) fn uploading(&self) -> Uploading<'_> {
        HOST_UPLOADS.begin(&self.uploading)
    }

    /// This device's upload threads (`Tuning::upload_threads`, at most one a core),
    /// started on first use and again when the tuning changes their number: a one-shot
    /// MSM's streamed uploads run there, so that the streams of a cluster's devices do
    /// not queue behind each other's pieces in one pool. `None` if the threads cannot
    /// be started or the tuning asks for none (each upload is then written after its
    /// submission, on the submitting thread; the copying itself uses rayon's global pool).
    /// The device counts among the devices uploading while the returned value lives.
    pub(crate) fn uploads(&self) -> Uploads<'_> {
        let tuning = self.tuning();
        Uploads {
            pool: self.upload_pool(tuning.upload_threads_on_host()),
            spread: Spread::of(&tuning),
            _uploading: self.uploading(),
        }
    }

    #[cfg(target_arch = "wasm32")]
    fn upload_pool(&self, _threads: usize) -> Option<Arc<ThreadPool>> {
        // No threads in a browser: uploads are written on the calling thread.
        let _ = &self.uploads;
        None
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn upload_pool(&self, threads: usize) -> Option<Arc<ThreadPool>> {
        let mut uploads = self.uploads.lock().unwrap_or_else(|e| e.into_inner());
        match &*uploads {
            Some((n, pool)) if *n == threads => pool.clone(),
            _ if threads == 0 => {
                *uploads = Some((0, None));
                None
            }
            _ => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("wgpu-msm-upload-{i}"))
                    .build()
                    .map(Arc::new)
                    .ok();
                *uploads = Some((threads, pool.clone()));
                pool
            }
        }
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
        self.or_freed(|| self.arenas.lease(&key, || Arena::new(device, queue, key)))
    }
}

/// A pool whose idle items can be dropped and its size changed.
trait Keep {
    fn reset(&self, keep: usize);
}

impl<T: Pooled> Keep for Pool<T> {
    fn reset(&self, keep: usize) {
        self.set_keep(keep);
        self.clear();
    }
}

impl Device {
    /// The MSM's state for this device, made on first use with the device's default
    /// tuning and the environment's overrides.
    ///
    /// # Errors
    /// [`Error::BadEnv`](crate::error::Error::BadEnv) when an override does not parse.
    pub(crate) fn msm_state(&self) -> Result<&DeviceState> {
        if let Some(s) = self.extension_if_made::<DeviceState>() {
            return Ok(s);
        }
        let tuning = Tuning::for_device(self.info()).with_env()?;
        tuning.check(self.info())?;
        Ok(self.extension(|| DeviceState::new(tuning)))
    }

    /// How the MSM runs on this device: its defaults ([`Tuning::for_device`]) with the
    /// environment's overrides ([`Tuning::with_env`]), or what
    /// [`Device::set_tuning`] set. Every clone of this handle shares it; another
    /// device (even on the same adapter) has its own.
    ///
    /// # Errors
    /// [`Error::BadEnv`](crate::error::Error::BadEnv) when a `WGPU_MSM_*` override does
    /// not parse; [`Error::InvalidConfig`](crate::error::Error::InvalidConfig) when it
    /// asks for something the device cannot do.
    pub fn tuning(&self) -> Result<Tuning> {
        Ok(self.msm_state()?.tuning())
    }

    /// Runs this device's MSMs with `tuning` from now on (MSMs already running keep
    /// theirs). The device's idle pooled buffers are dropped.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`](crate::error::Error::InvalidConfig) when the device
    /// cannot run `tuning` ([`Tuning::check`]); as [`Device::tuning`].
    ///
    /// # Example
    /// ```no_run
    /// let dev = &wgpu_msm::Device::all()?[0];
    /// let mut t = dev.tuning()?;
    /// t.upload_threads = 4;
    /// dev.set_tuning(t)?;
    /// # Ok::<(), wgpu_msm::Error>(())
    /// ```
    pub fn set_tuning(&self, tuning: Tuning) -> Result<()> {
        tuning.check(self.info())?;
        self.msm_state()?.set_tuning(tuning);
        Ok(())
    }
}
