//! Devices: one per physical GPU that wgpu can reach, each with its own queue.
//!
//! [`Device::all`] enumerates adapters on every backend, keeps one adapter per physical
//! GPU (the best backend wins), puts hardware before software adapters and applies the
//! `WGPU_MSM_DEVICES` selection. A [`Device`] is a cheap, cloneable, `Send + Sync`
//! handle; clones share the same wgpu device, queue, polling thread, pipeline cache
//! and the state the layers above keep per device (`Device::extension`).
//!
//! This layer knows adapters, queues, polling, buffers and pipelines, and nothing of
//! what runs on them.

#[cfg(not(target_arch = "wasm32"))]
mod active;
mod cache;
pub mod enumerate;
pub(crate) mod gpu;
pub(crate) mod pipeline;
mod poller;
pub(crate) mod thread_times;

#[cfg(not(target_arch = "wasm32"))]
pub use active::{active_device, device_count, run_on_device, set_device};
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use cache::adapter_key;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use cache::cache_dir;
pub(crate) use cache::PipelineCache;
pub(crate) use poller::Poller;
pub(crate) use thread_times::ThreadTimes;

use crate::error::{Error, Result};
#[cfg(not(target_arch = "wasm32"))]
use enumerate::{Candidate, Selection};
use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Static facts about a device that users pick devices by.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DeviceInfo {
    /// Position in the list [`Device::all`] returned (renumbered after selection).
    pub index: usize,
    /// Adapter name, e.g. "NVIDIA H200".
    pub name: String,
    /// Backend in use ("Vulkan", "Metal", "Dx12", "Gl").
    pub backend: String,
    /// "DiscreteGpu", "IntegratedGpu", "Cpu", ...
    pub device_type: String,
    /// PCI vendor id.
    pub vendor: u32,
    /// PCI device id.
    pub device_id: u32,
    /// Driver name and version.
    pub driver: String,
    /// Largest buffer the device can create, in bytes.
    pub max_buffer_size: u64,
    /// Largest storage-buffer binding, in bytes.
    pub max_storage_binding: u64,
    /// Most invocations in one workgroup.
    pub max_invocations_per_workgroup: u32,
    /// Most workgroups in one dispatch dimension.
    pub max_workgroups_per_dimension: u32,
    /// Bytes of workgroup memory one compute workgroup may use (the reduction's
    /// workgroups are sized to it: `shader::stages::reduce_wg`).
    pub max_workgroup_storage: u32,
    /// Whether shaders may use 64-bit integers (the `Wide64` path).
    pub shader_int64: bool,
    /// Whether subgroup operations are available.
    pub subgroup: bool,
    /// Whether GPU timestamp queries are available.
    pub timestamp_query: bool,
    /// Whether the device is a software rasteriser.
    pub software: bool,
    /// Whether host-mappable buffers may be bound as storage
    /// (`MAPPABLE_PRIMARY_BUFFERS`), so that kernels can read uploads in place.
    pub mappable_storage: bool,
    /// Whether the device takes indirect dispatches (`INDIRECT_EXECUTION`).
    pub indirect_dispatch: bool,
}

/// One GPU with its own wgpu device and queue.
#[derive(Clone)]
pub struct Device {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub(crate) uid: u64,
    pub(crate) info: DeviceInfo,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(crate) adapter: Option<wgpu::Adapter>,
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    pub(crate) poller: Poller,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(crate) pipeline_cache: PipelineCache,
    /// The state a layer above keeps per device (see [`Device::extension`]).
    extension: OnceLock<Box<dyn Any + Send + Sync>>,
}

static NEXT_UID: AtomicU64 = AtomicU64::new(1);

/// Features we ask for when the adapter has them. MAPPABLE_PRIMARY_BUFFERS lets
/// kernels read inputs straight from the upload buffers the host writes
/// ([`DeviceInfo::mappable_storage`]). wgpu-core logs a warning about it on a discrete
/// GPU (a mappable buffer there may live in slower memory); upload buffers are
/// host-visible either way, and reading them in place is the faster of the two there
/// (see docs/).
fn wanted_features() -> wgpu::Features {
    wgpu::Features::SHADER_INT64
        | wgpu::Features::SUBGROUP
        | wgpu::Features::TIMESTAMP_QUERY
        | wgpu::Features::PIPELINE_CACHE
        | wgpu::Features::MAPPABLE_PRIMARY_BUFFERS
}

/// The limits a device on `adapter` is opened with: the adapter's own, with its
/// workgroup memory capped at `WGPU_MSM_MAX_WORKGROUP_STORAGE` bytes where that is set
/// (to run a GPU as one with WebGPU's 16 KiB or Apple's and GL's 32 KiB would; the
/// reduction's workgroups are sized to what the device gets).
///
/// # Errors
/// [`Error::BadEnv`] when the variable is not a number of bytes.
fn device_limits(adapter: &wgpu::Adapter) -> Result<wgpu::Limits> {
    let limits = adapter.limits();
    #[cfg(not(target_arch = "wasm32"))]
    if let Ok(v) = std::env::var("WGPU_MSM_MAX_WORKGROUP_STORAGE") {
        let cap = v.trim().parse::<u32>().map_err(|_| Error::BadEnv {
            var: "WGPU_MSM_MAX_WORKGROUP_STORAGE",
            value: v.clone(),
            expected: "a number of bytes",
        })?;
        return Ok(wgpu::Limits {
            max_compute_workgroup_storage_size: limits.max_compute_workgroup_storage_size.min(cap),
            ..limits
        });
    }
    Ok(limits)
}

/// The process's wgpu instance, made on first use and kept for the life of the
/// process, with a lock that every enumeration and device opening holds.
///
/// One instance, not one per [`Device::all`]: each instance of wgpu's GL backend
/// initialises the process-wide EGL display and terminates it when dropped, so an
/// instance dropped on one thread while another enumerated or opened devices pulled the
/// display from under it: tests that open and drop the GPUs of a multi-GPU host from
/// several threads at once hung that way.
///
/// Built from wgpu's environment variables (`WGPU_BACKEND`, ...), less
/// `VALIDATION_INDIRECT_CALL` unless `WGPU_VALIDATION_INDIRECT_CALL` asks for it:
/// wgpu sets that flag in release builds too, and it makes every device build
/// validation pipelines at creation for indirect calls, which this crate never makes.
#[cfg(not(target_arch = "wasm32"))]
fn instance() -> std::sync::MutexGuard<'static, wgpu::Instance> {
    static INSTANCE: std::sync::OnceLock<std::sync::Mutex<wgpu::Instance>> =
        std::sync::OnceLock::new();
    INSTANCE
        .get_or_init(|| {
            let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
            if std::env::var_os("WGPU_VALIDATION_INDIRECT_CALL").is_none() {
                desc.flags
                    .remove(wgpu::InstanceFlags::VALIDATION_INDIRECT_CALL);
            }
            std::sync::Mutex::new(wgpu::Instance::new(desc))
        })
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

#[cfg(not(target_arch = "wasm32"))]
fn candidate(a: &wgpu::Adapter) -> Candidate {
    let i = a.get_info();
    Candidate {
        name: i.name,
        backend: i.backend,
        device_type: i.device_type,
        vendor: i.vendor,
        device: i.device,
        pci_bus_id: i.device_pci_bus_id,
    }
}

/// Why no device was found, with the fix for the common headless-NVIDIA case.
#[cfg(not(target_arch = "wasm32"))]
fn no_device_hint() -> String {
    let mut hint = String::from(
        "wgpu enumerated no usable adapter. Install a Vulkan driver and loader \
         (Debian/Ubuntu: `apt-get install mesa-vulkan-drivers libvulkan1` gives the lavapipe \
         CPU driver), or check WGPU_MSM_DEVICES",
    );
    if std::path::Path::new("/dev/nvidia0").exists() {
        hint.push_str(
            ". /dev/nvidia0 exists but no NVIDIA adapter was found: on a headless server \
             NVIDIA's Vulkan driver must be reached through libEGL_nvidia.so.0 (its GLX entry \
             point fails without a display). Write an ICD file such as \
             {\"file_format_version\":\"1.0.0\",\"ICD\":{\"library_path\":\"libEGL_nvidia.so.0\",\
             \"api_version\":\"1.3.0\"}} and point VK_ICD_FILENAMES at it, and install libvulkan1",
        );
    }
    hint
}

impl Device {
    /// Every selected device: hardware adapters, one per physical GPU through its best
    /// backend; software adapters only when no hardware adapter exists or
    /// `WGPU_MSM_DEVICES` contains `cpu`.
    ///
    /// # Errors
    /// [`Error::NoDevice`] when nothing could be opened; [`Error::NoMatchingDevice`] when
    /// `WGPU_MSM_DEVICES` matches none of the adapters. Adapters that fail to open are
    /// logged and skipped.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn all() -> Result<Vec<Device>> {
        Self::all_with(&Selection::from_env(), false)
    }

    /// Like [`Device::all`], with software adapters admitted even when a GPU exists.
    ///
    /// # Errors
    /// [`Error::NoDevice`] when nothing could be opened.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn all_including_software() -> Result<Vec<Device>> {
        Self::all_with(&Selection::from_env(), true)
    }

    /// Enumerates with an explicit selection (see [`enumerate::Selection::parse`]).
    ///
    /// # Errors
    /// [`Error::NoDevice`] when nothing could be opened; [`Error::NoMatchingDevice`] when
    /// `sel` matches none of the adapters.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn all_with(sel: &Selection, allow_software: bool) -> Result<Vec<Device>> {
        let instance = instance();
        let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        let cands: Vec<Candidate> = adapters.iter().map(candidate).collect();
        for c in &cands {
            log::debug!(
                "adapter: {} via {:?} ({:?})",
                c.name,
                c.backend,
                c.device_type
            );
        }
        let chosen = enumerate::choose(&cands, sel, allow_software);
        if chosen.is_empty() && !cands.is_empty() {
            return Err(enumerate::no_match(&cands, sel, allow_software));
        }
        let mut out = Vec::new();
        for i in chosen {
            match Self::open(adapters[i].clone(), out.len()) {
                Ok(d) => out.push(d),
                Err(e) => log::warn!("skipping adapter {}: {e}", cands[i].name),
            }
        }
        if out.is_empty() {
            return Err(Error::NoDevice {
                hint: no_device_hint(),
            });
        }
        Ok(out)
    }

    /// Opens a logical device on `adapter`, with every feature we use that it has and
    /// its full limits (see `WGPU_MSM_MAX_WORKGROUP_STORAGE` in the guide). `index` is
    /// the number users see for it.
    ///
    /// # Errors
    /// [`Error::RequestDevice`] when the driver refuses; [`Error::BadEnv`] for a
    /// `WGPU_MSM_MAX_WORKGROUP_STORAGE` that is not a number.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open(adapter: wgpu::Adapter, index: usize) -> Result<Device> {
        pollster::block_on(Self::open_async(adapter, index))
    }

    /// [`Device::open`] as a future (the only way in a browser, where nothing may
    /// block).
    ///
    /// # Errors
    /// [`Error::RequestDevice`] when the driver (or the browser) refuses;
    /// [`Error::BadEnv`] for a `WGPU_MSM_MAX_WORKGROUP_STORAGE` that is not a number.
    pub async fn open_async(adapter: wgpu::Adapter, index: usize) -> Result<Device> {
        let features = adapter.features() & wanted_features();
        let desc = wgpu::DeviceDescriptor {
            label: Some("wgpu-msm"),
            required_features: features,
            required_limits: device_limits(&adapter)?,
            memory_hints: wgpu::MemoryHints::Performance,
            ..Default::default()
        };
        let (device, queue) = adapter.request_device(&desc).await?;
        Ok(Self::assemble(Some(adapter), device, queue, index, true))
    }

    /// Every selected device, as a future: natively [`Device::all`] (whose
    /// enumeration never waits there); in a browser (wasm32) the one device of the
    /// browser's WebGPU adapter, asked for without blocking.
    ///
    /// # Errors
    /// As [`Device::all`]; in a browser [`Error::NoDevice`] when it has no WebGPU
    /// (`navigator.gpu` missing, or no adapter), [`Error::RequestDevice`] when it
    /// refuses the device.
    pub async fn all_async() -> Result<Vec<Device>> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            Self::all()
        }
        #[cfg(target_arch = "wasm32")]
        {
            if !wgpu::util::is_browser_webgpu_supported().await {
                return Err(Error::NoDevice {
                    hint: "this browser has no WebGPU (navigator.gpu is missing or gives no \
                           adapter): use a browser with WebGPU on (Chromium without a GPU: \
                           --enable-unsafe-webgpu --use-webgpu-adapter=swiftshader), over \
                           https or on localhost"
                        .into(),
                });
            }
            let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
            desc.backends = wgpu::Backends::BROWSER_WEBGPU;
            let instance = wgpu::Instance::new(desc);
            let adapter = instance
                .request_adapter(&wgpu::RequestAdapterOptions {
                    power_preference: wgpu::PowerPreference::HighPerformance,
                    ..Default::default()
                })
                .await
                .map_err(|e| Error::NoDevice {
                    hint: format!(
                        "the browser gave no WebGPU adapter ({e}): WebGPU is missing or \
                         turned off (Chromium: --enable-unsafe-webgpu, and \
                         --use-webgpu-adapter=swiftshader without a GPU)"
                    ),
                })?;
            Ok(vec![Self::open_async(adapter, 0).await?])
        }
    }

    /// Opens a second, independent logical device on the same adapter (its own queue,
    /// pipelines and buffers). Tests of multi-device code use it on one-GPU machines.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] for a device made by [`Device::from_wgpu`] without an
    /// adapter; [`Error::RequestDevice`] when the driver refuses.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open_again(&self) -> Result<Device> {
        let adapter =
            self.inner.adapter.clone().ok_or_else(|| {
                Error::InvalidConfig("device was wrapped without its adapter".into())
            })?;
        Self::open(adapter, self.inner.info.index)
    }

    /// Wraps a device an application already has (a renderer's), so the MSM shares it
    /// instead of opening a second one. Feature use follows `device.features()`; the
    /// application's error and device-lost handlers are left as they are.
    pub fn from_wgpu(adapter: wgpu::Adapter, device: wgpu::Device, queue: wgpu::Queue) -> Device {
        Self::assemble(Some(adapter), device, queue, 0, false)
    }

    fn assemble(
        adapter: Option<wgpu::Adapter>,
        device: wgpu::Device,
        queue: wgpu::Queue,
        index: usize,
        owned: bool,
    ) -> Device {
        let ainfo = adapter.as_ref().map(|a| a.get_info());
        let limits = device.limits();
        let features = device.features();
        let software = ainfo
            .as_ref()
            .is_some_and(|i| i.device_type == wgpu::DeviceType::Cpu);
        let info = DeviceInfo {
            index,
            name: ainfo
                .as_ref()
                .map_or_else(|| "wgpu device".into(), |i| i.name.clone()),
            backend: ainfo
                .as_ref()
                .map_or_else(String::new, |i| format!("{:?}", i.backend)),
            device_type: ainfo
                .as_ref()
                .map_or_else(String::new, |i| format!("{:?}", i.device_type)),
            vendor: ainfo.as_ref().map_or(0, |i| i.vendor),
            device_id: ainfo.as_ref().map_or(0, |i| i.device),
            driver: ainfo.as_ref().map_or_else(String::new, |i| {
                format!("{} {}", i.driver, i.driver_info).trim().to_string()
            }),
            max_buffer_size: limits.max_buffer_size,
            max_storage_binding: limits.max_storage_buffer_binding_size,
            max_invocations_per_workgroup: limits.max_compute_invocations_per_workgroup,
            max_workgroups_per_dimension: limits.max_compute_workgroups_per_dimension,
            max_workgroup_storage: limits.max_compute_workgroup_storage_size,
            shader_int64: features.contains(wgpu::Features::SHADER_INT64),
            subgroup: features.contains(wgpu::Features::SUBGROUP),
            timestamp_query: features.contains(wgpu::Features::TIMESTAMP_QUERY),
            software,
            mappable_storage: features.contains(wgpu::Features::MAPPABLE_PRIMARY_BUFFERS),
            indirect_dispatch: adapter.as_ref().is_some_and(|a| {
                a.get_downlevel_capabilities()
                    .flags
                    .contains(wgpu::DownlevelFlags::INDIRECT_EXECUTION)
            }),
        };
        if owned {
            let name = info.name.clone();
            // Errors outside an error scope are logged rather than left to wgpu's default
            // handler, which panics; every operation we run checks its own scope.
            device.on_uncaptured_error(Arc::new(move |e| log::error!("wgpu error on {name}: {e}")));
            let lost_name = info.name.clone();
            device.set_device_lost_callback(move |reason, msg| {
                log::warn!("device {lost_name} lost ({reason:?}): {msg}")
            });
        }
        let poller = Poller::new(device.clone());
        let pipeline_cache = PipelineCache::open(&device, &info);
        Device {
            inner: Arc::new(Inner {
                uid: NEXT_UID.fetch_add(1, Ordering::Relaxed),
                info,
                adapter,
                device,
                queue,
                poller,
                pipeline_cache,
                extension: OnceLock::new(),
            }),
        }
    }

    /// What this device is (name, backend, limits, features).
    pub fn info(&self) -> &DeviceInfo {
        &self.inner.info
    }

    /// The index users see (see [`Device::all`]).
    pub fn index(&self) -> usize {
        self.inner.info.index
    }

    /// The adapter's name.
    pub fn name(&self) -> &str {
        &self.inner.info.name
    }

    /// A number unique to this logical device within the process; handles record it so
    /// that using them on another device is an [`Error::WrongDevice`].
    pub fn uid(&self) -> u64 {
        self.inner.uid
    }

    /// The underlying wgpu device, for applications that also render with it.
    pub fn wgpu_device(&self) -> &wgpu::Device {
        &self.inner.device
    }

    /// The underlying wgpu queue.
    pub fn wgpu_queue(&self) -> &wgpu::Queue {
        &self.inner.queue
    }

    /// The state a layer above this one keeps per device, made by `init` on first use
    /// and shared by every clone of this handle. The device holds it without knowing
    /// its type; the MSM keeps its kernels, pools and tuning there.
    ///
    /// # Panics
    /// When asked for a type other than the one the slot already holds: the slot has a
    /// single owner in this crate, so that is a bug.
    pub(crate) fn extension<T: Any + Send + Sync>(&self, init: impl FnOnce() -> T) -> &T {
        let held = self.inner.extension.get_or_init(|| Box::new(init()));
        match held.downcast_ref::<T>() {
            Some(t) => t,
            None => panic!("the device's extension slot holds another type"),
        }
    }

    /// The state in the extension slot, if it was made and is a `T`.
    pub(crate) fn extension_if_made<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.inner.extension.get()?.downcast_ref::<T>()
    }

    /// Returns `Ok` when `owner` (a handle's device uid) is this device.
    pub(crate) fn check_owner(&self, what: &'static str, owner: u64) -> Result<()> {
        if owner == self.inner.uid {
            Ok(())
        } else {
            Err(Error::WrongDevice {
                what,
                owner,
                used: self.inner.uid,
            })
        }
    }
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Device(#{} {} via {})",
            self.index(),
            self.name(),
            self.inner.info.backend
        )
    }
}
