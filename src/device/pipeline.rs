//! Compute pipelines built inside validation scopes, so that a shader error becomes a
//! typed [`Error::Shader`] naming the entry point, and compiled on one thread per entry
//! point.

use crate::error::{Error, Result};

/// Compute pipelines of one shader module sharing one bind group layout.
pub(crate) struct Kernels {
    /// Layout of bind group 0.
    pub(crate) layout: wgpu::BindGroupLayout,
    /// Layouts of bind groups 1.. (empty for most shaders).
    pub(crate) extra_layouts: Vec<wgpu::BindGroupLayout>,
    pipelines: Vec<(String, wgpu::ComputePipeline)>,
}

impl Kernels {
    /// Compiles `source` and builds one pipeline per entry point, inside a validation
    /// scope so that a shader error becomes [`Error::Shader`] naming the entry point.
    /// `trusted` drops wgpu's injected bounds checks (see [`module`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn build(
        device: &wgpu::Device,
        label: &str,
        source: &str,
        trusted: bool,
        entries: &[&[wgpu::BindGroupLayoutEntry]],
        entry_points: &[String],
        cache: Option<&wgpu::PipelineCache>,
    ) -> Result<Kernels> {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let started = std::time::Instant::now();
        let module = module(device, label, source, trusted);
        log::debug!("module {label} in {:.2?}", started.elapsed());
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(Error::Shader {
                entry: label.to_string(),
                message: e.to_string(),
            });
        }
        let mut layouts: Vec<wgpu::BindGroupLayout> = entries
            .iter()
            .map(|e| {
                device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: Some(label),
                    entries: e,
                })
            })
            .collect();
        let refs: Vec<Option<&wgpu::BindGroupLayout>> = layouts.iter().map(Some).collect();
        let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(label),
            bind_group_layouts: &refs,
            immediate_size: 0,
        });
        // One thread per entry point: drivers that compile pipelines on the calling
        // thread (Vulkan) then compile them in parallel. On GL they take turns
        // (`gl_compile_turn`).
        let gl = device.adapter_info().backend == wgpu::Backend::Gl;
        let results: Vec<Result<(String, wgpu::ComputePipeline)>> = std::thread::scope(|s| {
            let handles: Vec<_> = entry_points
                .iter()
                .map(|ep| {
                    let (pl, module) = (&pl, &module);
                    s.spawn(move || {
                        let _turn = gl.then(gl_compile_turn);
                        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
                        let name = format!("{label}/{ep}");
                        let started = std::time::Instant::now();
                        let p = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                            label: Some(&name),
                            layout: Some(pl),
                            module,
                            entry_point: Some(ep),
                            compilation_options: Default::default(),
                            cache,
                        });
                        log::debug!("pipeline {name} in {:.2?}", started.elapsed());
                        match pollster::block_on(scope.pop()) {
                            Some(e) => Err(Error::Shader {
                                entry: name,
                                message: e.to_string(),
                            }),
                            None => Ok((ep.clone(), p)),
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(Error::Shader {
                            entry: label.to_string(),
                            message: "compiler thread panicked".into(),
                        })
                    })
                })
                .collect()
        });
        let pipelines = results.into_iter().collect::<Result<Vec<_>>>()?;
        let layout = layouts.remove(0);
        Ok(Kernels {
            layout,
            extra_layouts: layouts,
            pipelines,
        })
    }

    /// The pipeline of entry point `name`.
    pub(crate) fn get(&self, name: &str) -> &wgpu::ComputePipeline {
        // Entry point names are constants of this crate; a miss is a bug.
        &self
            .pipelines
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no kernel named {name}"))
            .1
    }
}

/// Whether bounds checks stay on in trusted kernels too (`WGPU_MSM_BOUNDS_CHECKS=1`).
fn force_checks() -> bool {
    std::env::var("WGPU_MSM_BOUNDS_CHECKS").is_ok_and(|v| v == "1")
}

/// Creates a shader module. `trusted` modules run without wgpu's injected bounds checks:
/// the MSM kernels guard every index against the sizes they are given, and the checks
/// cost registers and instructions in the innermost loops.
fn module(device: &wgpu::Device, label: &str, source: &str, trusted: bool) -> wgpu::ShaderModule {
    let desc = wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    };
    if trusted && !force_checks() {
        // SAFETY: the MSM kernels index only within the bounds their parameters give
        // (every thread checks its index against n, the window count and the sorted
        // totals), which the host sizes the buffers for; see msm/plan/.
        unsafe { device.create_shader_module_trusted(desc, wgpu::ShaderRuntimeChecks::unchecked()) }
    } else {
        device.create_shader_module(desc)
    }
}

/// The process's turn to compile a pipeline on wgpu's GL backend, held while it
/// compiles. That backend compiles each pipeline under its adapter's one context lock,
/// and a thread that waits more than 6 s for the lock panics ("Could not lock adapter
/// context"); llvmpipe takes seconds for a curve kernel without Mesa's shader cache,
/// so compiler threads queued there would panic. Queued here instead, they wait without
/// a limit, one compiling at a time (every GL device of the process, since two
/// handles of one adapter share its context).
fn gl_compile_turn() -> std::sync::MutexGuard<'static, ()> {
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}
