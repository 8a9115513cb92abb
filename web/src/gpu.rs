//! The browser's GPU: one WebGPU adapter, its device and queue, opened without blocking.
//!
//! On wasm32 the instance asks for the browser's WebGPU only (`Backends::BROWSER_WEBGPU`);
//! natively it takes any backend, so the same code can be checked on lavapipe.

use crate::error::Result;

/// The adapter, device and queue of the browser's GPU.
pub struct BrowserGpu {
    /// The adapter the browser gave.
    pub adapter: wgpu::Adapter,
    /// A device with the adapter's full limits and no optional features (the portable
    /// 32-bit path needs none).
    pub device: wgpu::Device,
    /// The device's queue.
    pub queue: wgpu::Queue,
}

/// What the adapter says about itself, and the limits the MSM sizes its passes by.
#[derive(Clone, Debug)]
pub struct GpuSummary {
    /// wgpu's view of the adapter (on WebGPU the name is `GPUAdapterInfo.description`).
    pub info: wgpu::AdapterInfo,
    /// The browser's own `GPUAdapterInfo` (vendor, architecture, device, description),
    /// which wgpu's [`wgpu::AdapterInfo`] only partly carries; empty natively.
    pub browser: String,
    /// `maxStorageBufferBindingSize` in bytes.
    pub max_storage_binding: u64,
    /// `maxBufferSize` in bytes.
    pub max_buffer: u64,
    /// `maxComputeWorkgroupStorageSize` in bytes.
    pub max_workgroup_storage: u32,
    /// `maxComputeInvocationsPerWorkgroup`.
    pub max_invocations: u32,
    /// `maxComputeWorkgroupsPerDimension`.
    pub max_workgroups_per_dim: u32,
    /// Whether the adapter has 64-bit integers in shaders (WebGPU has none, so the
    /// portable 32-bit path is the one that runs).
    pub shader_int64: bool,
}

impl std::fmt::Display for GpuSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let i = &self.info;
        write!(
            f,
            "{:?} adapter \"{}\" ({:?}, subgroups {}..{}) [{}]; storage binding {} MiB, \
             buffer {} MiB, workgroup storage {} KiB, {} invocations/workgroup, \
             {} workgroups/dimension, SHADER_INT64 {}",
            i.backend,
            i.name,
            i.device_type,
            i.subgroup_min_size,
            i.subgroup_max_size,
            self.browser,
            self.max_storage_binding >> 20,
            self.max_buffer >> 20,
            self.max_workgroup_storage >> 10,
            self.max_invocations,
            self.max_workgroups_per_dim,
            if self.shader_int64 { "yes" } else { "no" },
        )
    }
}

impl BrowserGpu {
    /// Asks the browser for its WebGPU adapter and opens a device on it.
    ///
    /// # Errors
    /// [`WebError::NoAdapter`](crate::WebError::NoAdapter) when the browser has no
    /// WebGPU adapter; [`WebError::RequestDevice`](crate::WebError::RequestDevice) when
    /// it refuses the device.
    pub async fn open() -> Result<BrowserGpu> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = if cfg!(target_arch = "wasm32") {
            wgpu::Backends::BROWSER_WEBGPU
        } else {
            wgpu::Backends::all()
        };
        let instance = wgpu::Instance::new(desc);
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await?;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("wgpu-msm-web"),
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await?;
        Ok(BrowserGpu {
            adapter,
            device,
            queue,
        })
    }

    /// The adapter's description and the limits that matter to the MSM.
    pub async fn summary(&self) -> GpuSummary {
        let l = self.device.limits();
        GpuSummary {
            info: self.adapter.get_info(),
            browser: browser_adapter_info().await,
            max_storage_binding: l.max_storage_buffer_binding_size,
            max_buffer: l.max_buffer_size,
            max_workgroup_storage: l.max_compute_workgroup_storage_size,
            max_invocations: l.max_compute_invocations_per_workgroup,
            max_workgroups_per_dim: l.max_compute_workgroups_per_dimension,
            shader_int64: self
                .adapter
                .features()
                .contains(wgpu::Features::SHADER_INT64),
        }
    }
}

/// `navigator.gpu.requestAdapter()`'s `info` as `key=value` pairs, read through JS
/// because wgpu maps only its description; a note instead when it cannot be read.
#[cfg(target_arch = "wasm32")]
pub(crate) async fn browser_adapter_info() -> String {
    use js_sys::{Function, Promise, Reflect};
    use wasm_bindgen::{JsCast, JsValue};
    let get = |o: &JsValue, k: &str| Reflect::get(o, &JsValue::from_str(k));
    let info = async {
        let gpu = get(&get(&js_sys::global().into(), "navigator")?, "gpu")?;
        let request: Function = get(&gpu, "requestAdapter")?.dyn_into()?;
        let promise: Promise = request.call0(&gpu)?.dyn_into()?;
        let adapter = wasm_bindgen_futures::JsFuture::from(promise).await?;
        get(&adapter, "info")
    };
    match info.await {
        Ok(info) => ["vendor", "architecture", "device", "description"]
            .iter()
            .map(|k| {
                let v = get(&info, k).ok().and_then(|v| v.as_string());
                format!("{k}={}", v.unwrap_or_default())
            })
            .collect::<Vec<_>>()
            .join(" "),
        Err(e) => format!("GPUAdapterInfo unreadable: {e:?}"),
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) async fn browser_adapter_info() -> String {
    String::new()
}
