//! Per-device MSM state: compiled kernels (built once, lazily, per multiply path), the
//! Vulkan pipeline cache persisted on disk, and pools of working buffers and input
//! arenas reused across calls so a second MSM of the same shape compiles and allocates
//! nothing.

use super::arena::{Arena, ArenaKey};
use super::plan::Plan;
use super::pool::{Lease, Pool, Pooled};
use crate::config::MulPath;
use crate::device::DeviceInfo;
use crate::error::Result;
use crate::gpu::{self, Kernels};
use crate::shader::{self, ShaderKind};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Working buffers of one pass shape (inputs live in an [`Arena`]).
pub(crate) struct Working {
    pub(crate) plan: Plan,
    pub(crate) digits: wgpu::Buffer,
    pub(crate) counts: wgpu::Buffer,
    pub(crate) offsets: wgpu::Buffer,
    pub(crate) sorted: wgpu::Buffer,
    pub(crate) scratch: wgpu::Buffer,
    /// Bucket totals over the passes of one MSM (cleared by its first pass).
    pub(crate) totals: wgpu::Buffer,
    /// Fold step numbers 0..FOLD_STEPS, one per 256-byte slot (bound with dynamic offsets).
    pub(crate) fold_steps: wgpu::Buffer,
    /// Dispatch arguments of the fold steps, three words each, written on the device
    /// (msm_fold_args.wgsl) where the device takes indirect dispatches.
    pub(crate) fold_dispatch: wgpu::Buffer,
}

/// Most fold steps (chunks per window < 2^FOLD_STEPS).
pub(crate) const FOLD_STEPS: u32 = 32;
/// Bytes between fold-step slots (the uniform-offset alignment).
pub(crate) const FOLD_STRIDE: u64 = 256;
/// Bytes of one fold step's indirect dispatch arguments (x, y, z).
pub(crate) const FOLD_DISPATCH_BYTES: u64 = 12;

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

impl Pooled for Working {
    type Key = Plan;
    fn key(&self) -> Plan {
        self.plan
    }
}

pub(crate) struct DeviceState {
    kernels: Mutex<HashMap<(ShaderKind, MulPath), Arc<Kernels>>>,
    working: Pool<Working>,
    arenas: Pool<Arena>,
    readbacks: Pool<Readback>,
    cache: Option<wgpu::PipelineCache>,
    cache_file: Option<PathBuf>,
    pub(crate) profile: Mutex<Option<super::StageProfile>>,
    uploads: std::sync::OnceLock<Option<Arc<rayon::ThreadPool>>>,
    /// What this device's kernels read straight from the upload buffers.
    direct: super::staging::DirectUploads,
    /// Whether the polling thread retires each MSM submission
    /// (`tuning::retire_on_poller`).
    pub(crate) retire_on_poller: bool,
    /// Whether passes size their fold steps on the device and dispatch them indirectly
    /// (`tuning::fold_indirect`, where the device has indirect execution).
    pub(crate) fold_indirect: bool,
}

/// Where pipeline caches (and the clusters' remembered cost models) live:
/// `$WGPU_MSM_CACHE_DIR` (set but empty: nowhere, nothing is kept on disk), else
/// `$XDG_CACHE_HOME/wgpu-msm`, else `$HOME/.cache/wgpu-msm`.
pub(crate) fn cache_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("WGPU_MSM_CACHE_DIR") {
        return (!d.is_empty()).then(|| PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("wgpu-msm"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache").join("wgpu-msm"))
}

/// The initial upload pool of a device: unset (started on first use) except on wgpu's
/// GL backend, where it is set to none, so that uploads run on the thread that submits.
///
/// wgpu's GL backend runs every GL call of an adapter under one context lock, and a
/// thread that waits more than 6 s for it panics ("Could not lock adapter context").
/// On llvmpipe a submission holds the lock while its dispatches run, and the first
/// submission of a program also while llvmpipe compiles it (far longer than 6 s for
/// the curve kernels without Mesa's shader cache), so the unmap that ends an upload
/// written on a pool thread beside it panicked. With no pool, `upload::beside` writes each upload after the submission on
/// the same thread (the copying itself still spreads over rayon's threads, which make
/// no GL calls).
fn gl_uploads_on_submitting_thread(
    info: &DeviceInfo,
) -> std::sync::OnceLock<Option<Arc<rayon::ThreadPool>>> {
    let pool = std::sync::OnceLock::new();
    if info.backend == format!("{:?}", wgpu::Backend::Gl) {
        let _ = pool.set(None);
    }
    pool
}

impl DeviceState {
    /// The state of a new device, reading `direct` in place; `indirect` when the device
    /// takes indirect dispatches.
    pub(crate) fn new(
        device: &wgpu::Device,
        info: &DeviceInfo,
        direct: super::staging::DirectUploads,
        indirect: bool,
    ) -> DeviceState {
        let mut cache = None;
        let mut cache_file = None;
        if device.features().contains(wgpu::Features::PIPELINE_CACHE) {
            let key: String = format!(
                "{}-{:x}-{:x}-{}",
                info.backend, info.vendor, info.device_id, info.driver
            )
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
            if let Some(dir) = cache_dir() {
                let file = dir.join(format!("{key}.bin"));
                let data = std::fs::read(&file).ok();
                // SAFETY: the data is either absent or a blob wgpu wrote for an adapter
                // with this key; `fallback: true` makes wgpu discard a blob it rejects.
                cache = Some(unsafe {
                    device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
                        label: Some("wgpu-msm/pipeline-cache"),
                        data: data.as_deref(),
                        fallback: true,
                    })
                });
                cache_file = Some(file);
            }
        }
        DeviceState {
            kernels: Mutex::new(HashMap::new()),
            working: Pool::new(super::tuning::pool_keep()),
            arenas: Pool::new(super::tuning::pool_keep()),
            readbacks: Pool::new(super::tuning::pool_keep()),
            cache,
            cache_file,
            profile: Mutex::new(None),
            uploads: gl_uploads_on_submitting_thread(info),
            direct,
            retire_on_poller: match super::tuning::retire_on_poller() {
                1 => false,
                2 => true,
                _ => !info.software,
            },
            fold_indirect: indirect && super::tuning::fold_indirect() == 2,
        }
    }

    /// This device's upload threads (`upload::max_threads`), started on first use: a
    /// one-shot MSM's streamed uploads run there, so that the streams of a cluster's
    /// devices do not queue behind each other's pieces in one pool. `None` if the
    /// threads cannot be started (uploads then run on rayon's global pool).
    pub(crate) fn upload_pool(&self) -> Option<Arc<rayon::ThreadPool>> {
        self.uploads
            .get_or_init(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(super::upload::max_threads())
                    .thread_name(|i| format!("wgpu-msm-upload-{i}"))
                    .build()
                    .map(Arc::new)
                    .ok()
            })
            .clone()
    }

    /// The kernels of `kind` for `path`, compiled on first use.
    pub(crate) fn kernels(
        &self,
        device: &wgpu::Device,
        kind: ShaderKind,
        path: MulPath,
    ) -> Result<Arc<Kernels>> {
        // A shader without arithmetic is built once, whichever path asks for it.
        let path = if kind.uses_arithmetic() {
            path
        } else {
            MulPath::Portable32
        };
        let mut map = self.kernels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = map.get(&(kind, path)) {
            return Ok(k.clone());
        }
        let entries: Vec<Vec<wgpu::BindGroupLayoutEntry>> = match kind {
            ShaderKind::Msm => {
                let mut v = vec![
                    gpu::uniform_entry(0, false),
                    gpu::storage_entry(1, true),
                    gpu::storage_entry(2, true),
                ];
                v.extend((3..9).map(|b| gpu::storage_entry(b, false)));
                // Group 1: the fold step, one 256-byte slot per step (dynamic offset).
                vec![v, vec![gpu::uniform_entry(0, true)]]
            }
            ShaderKind::CheckBases => {
                vec![vec![
                    gpu::storage_entry(0, true),
                    gpu::storage_entry(1, false),
                ]]
            }
            // The bases, their on-curve flag, the expanded bases.
            ShaderKind::ExpandBases => {
                vec![vec![
                    gpu::storage_entry(0, true),
                    gpu::storage_entry(1, false),
                    gpu::storage_entry(2, false),
                ]]
            }
            // The pass's parameters, the bucket counts, the fold steps' dispatch sizes.
            ShaderKind::FoldArgs => vec![vec![
                gpu::uniform_entry(0, false),
                gpu::storage_entry(1, true),
                gpu::storage_entry(2, false),
            ]],
            ShaderKind::TestField | ShaderKind::TestCurve | ShaderKind::BenchArith => vec![vec![
                gpu::storage_entry(0, true),
                gpu::storage_entry(1, true),
                gpu::storage_entry(2, false),
            ]],
        };
        let entries: Vec<&[wgpu::BindGroupLayoutEntry]> =
            entries.iter().map(Vec::as_slice).collect();
        let label = format!("{}/{:?}", path.name(), kind).to_lowercase();
        let t = std::time::Instant::now();
        let k = Arc::new(Kernels::build(
            device,
            &label,
            &shader::source(kind, path),
            matches!(
                kind,
                ShaderKind::Msm | ShaderKind::CheckBases | ShaderKind::ExpandBases
            ),
            &entries,
            &kind.entry_points(),
            self.cache.as_ref(),
        )?);
        log::info!("compiled {label} in {:.2?}", t.elapsed());
        self.save_cache();
        map.insert((kind, path), k.clone());
        Ok(k)
    }

    fn save_cache(&self) {
        if let (Some(cache), Some(file)) = (&self.cache, &self.cache_file) {
            if let Some(data) = cache.get_data() {
                let tmp = file.with_extension("tmp");
                let ok = file
                    .parent()
                    .map(std::fs::create_dir_all)
                    .transpose()
                    .is_ok()
                    && std::fs::write(&tmp, &data).is_ok()
                    && std::fs::rename(&tmp, file).is_ok();
                if !ok {
                    log::debug!("could not write pipeline cache {}", file.display());
                }
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
                .lease(plan, || Self::new_working(device, queue, plan))
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

    fn new_working(device: &wgpu::Device, queue: &wgpu::Queue, plan: &Plan) -> Result<Working> {
        let w = u64::from(plan.num_windows);
        let b = u64::from(plan.num_buckets);
        let mk = |label: &str, size: u64| gpu::create_buffer(device, label, size, gpu::STORAGE);
        Ok(Working {
            plan: *plan,
            digits: mk("msm/digits", plan.entries_bytes())?,
            // The bucket counters, then the largest bucket of the pass.
            counts: mk("msm/counts", 4 * (w * b + 1))?,
            offsets: mk("msm/offsets", plan.offsets_bytes())?,
            sorted: mk("msm/sorted", plan.entries_bytes())?,
            scratch: mk("msm/scratch", plan.scratch_bytes())?,
            totals: mk("msm/totals", plan.totals_bytes())?,
            fold_dispatch: gpu::create_buffer(
                device,
                "msm/fold-dispatch",
                FOLD_DISPATCH_BYTES * u64::from(FOLD_STEPS),
                gpu::STORAGE | wgpu::BufferUsages::INDIRECT,
            )?,
            fold_steps: {
                let b = gpu::create_buffer(
                    device,
                    "msm/fold-steps",
                    FOLD_STRIDE * u64::from(FOLD_STEPS),
                    wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                )?;
                let mut words = vec![0u32; (FOLD_STRIDE / 4) as usize * FOLD_STEPS as usize];
                for s in 0..FOLD_STEPS as usize {
                    words[s * (FOLD_STRIDE / 4) as usize] = s as u32;
                }
                queue.write_buffer(&b, 0, bytemuck::cast_slice(&words));
                b
            },
        })
    }
}
