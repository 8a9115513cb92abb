//! What a device keeps on disk between processes: the driver's pipeline cache, in one
//! file per adapter and driver under [`cache_dir`] (which the clusters' remembered cost
//! models and the MSM kernels' wave sizes share).

use super::DeviceInfo;
#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

/// Where pipeline caches (and the clusters' remembered cost models and the MSM kernels'
/// wave sizes, `msm::waves`) live:
/// `$WGPU_MSM_CACHE_DIR` (set but empty: nowhere, nothing is kept on disk), else
/// `$XDG_CACHE_HOME/wgpu-msm`, else `$HOME/.cache/wgpu-msm`. Native only: a browser
/// keeps its own shader cache, and WebGPU has no `PIPELINE_CACHE`.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn cache_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("WGPU_MSM_CACHE_DIR") {
        return (!d.is_empty()).then(|| PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("wgpu-msm"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache").join("wgpu-msm"))
}

/// The name of what is kept for the adapter and driver `info` describes: backend,
/// vendor, device and driver, with every character but letters, digits and `-` as `_`.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn adapter_key(info: &DeviceInfo) -> String {
    format!(
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
    .collect()
}

/// A device's pipeline cache and the file it is loaded from and saved to; empty where
/// the device has no `PIPELINE_CACHE` or no cache directory exists.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) struct PipelineCache {
    cache: Option<wgpu::PipelineCache>,
    #[cfg(not(target_arch = "wasm32"))]
    file: Option<PathBuf>,
}

#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
impl PipelineCache {
    /// The cache of `device` (described by `info`), loaded from disk when a file for
    /// this adapter and driver exists.
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn open(_device: &wgpu::Device, _info: &DeviceInfo) -> PipelineCache {
        PipelineCache { cache: None }
    }

    /// The cache of `device` (described by `info`), loaded from disk when a file for
    /// this adapter and driver exists.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn open(device: &wgpu::Device, info: &DeviceInfo) -> PipelineCache {
        let mut cache = None;
        let mut file = None;
        if device.features().contains(wgpu::Features::PIPELINE_CACHE) {
            let key = adapter_key(info);
            if let Some(dir) = cache_dir() {
                let path = dir.join(format!("{key}.bin"));
                let data = std::fs::read(&path).ok();
                // SAFETY: the data is either absent or a blob wgpu wrote for an adapter
                // with this key; `fallback: true` makes wgpu discard a blob it rejects.
                cache = Some(unsafe {
                    device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
                        label: Some("wgpu-msm/pipeline-cache"),
                        data: data.as_deref(),
                        fallback: true,
                    })
                });
                file = Some(path);
            }
        }
        PipelineCache { cache, file }
    }

    /// The wgpu cache to build pipelines with, if any.
    pub(crate) fn get(&self) -> Option<&wgpu::PipelineCache> {
        self.cache.as_ref()
    }

    /// Writes the cache's data to its file (through a temporary file and a rename, so
    /// that a reader never sees half a file); a failure is logged and otherwise ignored.
    pub(crate) fn save(&self) {
        #[cfg(not(target_arch = "wasm32"))]
        if let (Some(cache), Some(file)) = (&self.cache, &self.file) {
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
}
