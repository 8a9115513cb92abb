//! How long the browser takes to build the crate's kernels: one shader module per
//! [`ShaderKind`], one pipeline per entry point, each awaited through a validation error
//! scope (Chromium answers it once the GPU process has compiled the pipeline).

use crate::error::{Result, WebError};
use crate::gpu::BrowserGpu;
use web_time::Instant;
use wgpu_msm::shader::{self, unroll::Unroll, ShaderKind};
use wgpu_msm::MulPath;

/// Creates the module of `kind` (portable 32-bit path, compact unrolling) and returns the
/// milliseconds until the browser reports its compilation messages.
///
/// # Errors
/// [`WebError::Shader`] when the module has errors.
pub async fn module(gpu: &BrowserGpu, kind: ShaderKind) -> Result<(wgpu::ShaderModule, f64)> {
    let src = shader::source_with(kind, MulPath::Portable32, Unroll::Compact);
    let label = format!("web/{kind:?}");
    let t = Instant::now();
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = gpu
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&label),
            source: wgpu::ShaderSource::Wgsl(src.as_str().into()),
        });
    let info = module.get_compilation_info().await;
    let scoped = scope.pop().await.map(|e| e.to_string());
    let errors: Vec<String> = scoped
        .into_iter()
        .chain(
            info.messages
                .iter()
                .filter(|m| m.message_type == wgpu::CompilationMessageType::Error)
                .map(|m| m.message.clone()),
        )
        .collect();
    if !errors.is_empty() {
        return Err(WebError::Shader {
            entry: label,
            message: errors.join("; "),
        });
    }
    Ok((module, t.elapsed().as_secs_f64() * 1e3))
}

/// Builds the pipeline of `entry` in `module` (automatic layout) and returns it with the
/// milliseconds until its error scope answered.
///
/// # Errors
/// [`WebError::Shader`] when the pipeline fails validation or compilation.
pub async fn pipeline(
    gpu: &BrowserGpu,
    module: &wgpu::ShaderModule,
    entry: &str,
) -> Result<(wgpu::ComputePipeline, f64)> {
    let t = Instant::now();
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let p = gpu
        .device
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout: None,
            module,
            entry_point: Some(entry),
            compilation_options: Default::default(),
            cache: None,
        });
    if let Some(e) = scope.pop().await {
        return Err(WebError::Shader {
            entry: entry.into(),
            message: e.to_string(),
        });
    }
    Ok((p, t.elapsed().as_secs_f64() * 1e3))
}
