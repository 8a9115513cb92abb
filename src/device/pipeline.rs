//! Compute pipelines built inside error scopes, so that a shader the driver rejects
//! becomes a typed [`Error::KernelBuild`] naming the device and entry point, and
//! compiled on one thread per entry point within a time limit, so that a driver whose
//! compiler does not finish is an error too rather than a hang.

use crate::error::{Error, Result};
use crate::time::Instant;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::mpsc::RecvTimeoutError;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Arc;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Duration;

/// Compute pipelines of one shader module sharing one bind group layout.
pub(crate) struct Kernels {
    /// Layout of bind group 0.
    pub(crate) layout: wgpu::BindGroupLayout,
    /// Layouts of bind groups 1.. (empty for most shaders).
    pub(crate) extra_layouts: Vec<wgpu::BindGroupLayout>,
    pipelines: Vec<(String, wgpu::ComputePipeline)>,
    /// The most workgroups of the module's accumulation kernel an MSM has seen running
    /// at once (0 until one has; MSM modules only): the size of its waves.
    pub(crate) most_running: std::sync::atomic::AtomicU32,
    /// The name `most_running` is kept under on disk (`msm::waves`); `None`: not kept.
    pub(crate) waves_kept_as: Option<String>,
}

impl Kernels {
    /// Compiles `source` and builds one pipeline per entry point of it on `device` (its
    /// name, `device_name`, goes into errors), each inside validation, internal and
    /// out-of-memory error scopes. `trusted` drops wgpu's injected bounds checks (see
    /// [`module`]). Each pipeline is built on a thread of its own; drivers that compile
    /// pipelines on the calling thread (Vulkan) then compile them in parallel, and on GL
    /// they take turns (`gl_compile_turn`). This thread waits for them at most `limit`
    /// in all.
    ///
    /// # Errors
    /// [`Error::KernelBuild`] naming the device and the module or entry point: a
    /// validation, internal or out-of-memory error, a compiler thread that panicked, or
    /// a build not done within `limit` (a driver's compiler cannot be interrupted: a
    /// pipeline being compiled is left to finish on its own thread, and on GL, whose
    /// compile holds the adapter's context, the error comes once it is done; pipelines
    /// not yet started are not built).
    #[allow(clippy::too_many_arguments)]
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn build(
        device: &wgpu::Device,
        device_name: &str,
        label: &str,
        source: &str,
        trusted: bool,
        entries: &[&[wgpu::BindGroupLayoutEntry]],
        entry_points: &[String],
        cache: Option<&wgpu::PipelineCache>,
        limit: Option<Duration>,
    ) -> Result<Kernels> {
        let started = Instant::now();
        let fail = |kernel: &str, message: String| Error::KernelBuild {
            device: device_name.to_string(),
            kernel: kernel.to_string(),
            message,
        };
        let (module, error) = scoped(device, || module(device, label, source, trusted));
        log::debug!("module {label} in {:.2?}", started.elapsed());
        if let Some(e) = error {
            return Err(fail(label, e));
        }
        let (layouts, pl) = layouts(device, label, entries);
        let gl = device.adapter_info().backend == wgpu::Backend::Gl;
        let (tx, rx) = std::sync::mpsc::channel();
        // Set when the build is given up: threads not yet compiling then build nothing.
        let given_up = Arc::new(AtomicBool::new(false));
        for (i, ep) in entry_points.iter().enumerate() {
            let (device, pl, module) = (device.clone(), pl.clone(), module.clone());
            let (cache, ep, tx) = (cache.cloned(), ep.clone(), tx.clone());
            let given_up = Arc::clone(&given_up);
            let name = format!("{label}/{ep}");
            let spawned = std::thread::Builder::new()
                .name(format!("wgpu-msm-build-{i}"))
                .spawn(move || {
                    let _turn = gl.then(gl_compile_turn);
                    if given_up.load(Ordering::Acquire) {
                        return;
                    }
                    let started = Instant::now();
                    let (p, error) = scoped(&device, || {
                        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                            label: Some(&name),
                            layout: Some(&pl),
                            module: &module,
                            entry_point: Some(&ep),
                            compilation_options: compilation_options(),
                            cache: cache.as_ref(),
                        })
                    });
                    log::debug!("pipeline {name} in {:.2?}", started.elapsed());
                    // The receiver is gone when the build was given up; nothing to do.
                    let _ = tx.send((i, error.map_or(Ok(p), |e| Err((name, e)))));
                });
            if let Err(e) = spawned {
                return Err(fail(label, format!("no compiler thread: {e}")));
            }
        }
        drop(tx);
        let mut built: Vec<Option<wgpu::ComputePipeline>> = vec![None; entry_points.len()];
        for _ in entry_points {
            let got = match limit {
                Some(limit) => rx.recv_timeout(limit.saturating_sub(started.elapsed())),
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match got {
                Ok((i, Ok(p))) => built[i] = Some(p),
                Ok((_, Err((name, e)))) => return Err(fail(&name, e)),
                Err(RecvTimeoutError::Timeout) => {
                    given_up.store(true, Ordering::Release);
                    if gl {
                        // A GL compile holds the adapter's one context until it is
                        // done, and another thread making the context current meanwhile
                        // fails (EGL_BAD_ACCESS, a panic in wgpu-hal): wait for the
                        // compile under way; the threads after it then build nothing.
                        drop(gl_compile_turn());
                    }
                    let waiting: Vec<&str> = entry_points
                        .iter()
                        .zip(&built)
                        .filter(|(_, b)| b.is_none())
                        .map(|(ep, _)| ep.as_str())
                        .collect();
                    return Err(fail(
                        &format!("{label}/{}", waiting.join(",")),
                        format!(
                            "not built within the {:.3} s limit (Tuning::kernel_build_limit)",
                            limit.unwrap_or_default().as_secs_f64()
                        ),
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(fail(label, "compiler thread panicked".into()))
                }
            }
        }
        let pipelines = entry_points
            .iter()
            .cloned()
            .zip(built.into_iter().flatten())
            .collect();
        Ok(Kernels::from_parts(layouts, pipelines))
    }

    /// [`Kernels::build`] in a browser, where nothing may block and there are no
    /// threads: the module and every pipeline are created in turn, each inside its
    /// error scopes, and the scopes' answers awaited after (the browser compiles
    /// meanwhile). No time limit: the browser's own watchdog bounds a compile.
    ///
    /// # Errors
    /// [`Error::KernelBuild`] naming the device and the module or entry point.
    #[cfg(target_arch = "wasm32")]
    pub(crate) async fn build_async(
        device: &wgpu::Device,
        device_name: &str,
        label: &str,
        source: &str,
        entries: &[&[wgpu::BindGroupLayoutEntry]],
        entry_points: &[String],
    ) -> Result<Kernels> {
        let started = Instant::now();
        let fail = |kernel: &str, message: String| Error::KernelBuild {
            device: device_name.to_string(),
            kernel: kernel.to_string(),
            message,
        };
        let (module, pops) = scoped_later(device, || {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
        });
        if let Some(e) = first_error(pops).await {
            return Err(fail(label, e));
        }
        log::debug!("module {label} in {:.2?}", started.elapsed());
        let (layouts, pl) = layouts(device, label, entries);
        let mut made = Vec::with_capacity(entry_points.len());
        for ep in entry_points {
            let name = format!("{label}/{ep}");
            let (p, pops) = scoped_later(device, || {
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(&name),
                    layout: Some(&pl),
                    module: &module,
                    entry_point: Some(ep),
                    compilation_options: compilation_options(),
                    cache: None,
                })
            });
            made.push((name, ep.clone(), p, pops));
        }
        let mut pipelines = Vec::with_capacity(made.len());
        for (name, ep, p, pops) in made {
            if let Some(e) = first_error(pops).await {
                return Err(fail(&name, e));
            }
            log::debug!("pipeline {name} by {:.2?}", started.elapsed());
            pipelines.push((ep, p));
        }
        Ok(Kernels::from_parts(layouts, pipelines))
    }

    /// The kernels of a module: its bind group layouts (the first one every pipeline
    /// binds as group 0) and its pipelines by entry point.
    fn from_parts(
        mut layouts: Vec<wgpu::BindGroupLayout>,
        pipelines: Vec<(String, wgpu::ComputePipeline)>,
    ) -> Kernels {
        let layout = layouts.remove(0);
        Kernels {
            layout,
            extra_layouts: layouts,
            pipelines,
            most_running: std::sync::atomic::AtomicU32::new(0),
            waves_kept_as: None,
        }
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

/// The answers of the three scopes of [`scoped_later`], innermost first.
#[cfg(target_arch = "wasm32")]
type Pops = Vec<std::pin::Pin<Box<dyn std::future::Future<Output = Option<wgpu::Error>>>>>;

/// How every kernel is compiled: without wgpu's zero-initialisation of workgroup
/// memory. Each kernel writes its workgroup memory before reading it (msm_sort.wgsl
/// stores `scan_largest`, msm_reduce.wgsl every lane's `red_tmp` slot, behind a
/// barrier), so the zeroing is dead work; and through GL, naga writes it as one
/// constructor of every element, which llvmpipe is slow to compile (docs/drivers.md).
fn compilation_options() -> wgpu::PipelineCompilationOptions<'static> {
    wgpu::PipelineCompilationOptions {
        zero_initialize_workgroup_memory: false,
        ..Default::default()
    }
}

/// One bind group layout per entry of `entries` and the pipeline layout over them all,
/// labelled `label`.
fn layouts(
    device: &wgpu::Device,
    label: &str,
    entries: &[&[wgpu::BindGroupLayoutEntry]],
) -> (Vec<wgpu::BindGroupLayout>, wgpu::PipelineLayout) {
    let layouts: Vec<wgpu::BindGroupLayout> = entries
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
    (layouts, pl)
}

/// Runs `f` inside validation, internal and out-of-memory error scopes of `device`,
/// popped at once; their answers come when awaited ([`first_error`]).
#[cfg(target_arch = "wasm32")]
fn scoped_later<T>(device: &wgpu::Device, f: impl FnOnce() -> T) -> (T, Pops) {
    let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let out = f();
    // Scopes pop innermost first.
    let pops: Pops = vec![
        Box::pin(validation.pop()),
        Box::pin(internal.pop()),
        Box::pin(oom.pop()),
    ];
    (out, pops)
}

/// The first error the scopes of `pops` caught.
#[cfg(target_arch = "wasm32")]
async fn first_error(pops: Pops) -> Option<String> {
    let mut first = None;
    for pop in pops {
        if let Some(e) = pop.await {
            first.get_or_insert(e.to_string());
        }
    }
    first
}

/// Runs `f` inside validation, internal and out-of-memory error scopes of `device`, and
/// says the first error any of them caught.
#[cfg(not(target_arch = "wasm32"))]
fn scoped<T>(device: &wgpu::Device, f: impl FnOnce() -> T) -> (T, Option<String>) {
    let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let out = f();
    // Scopes pop innermost first.
    let errors = [
        pollster::block_on(validation.pop()),
        pollster::block_on(internal.pop()),
        pollster::block_on(oom.pop()),
    ];
    let first = errors.into_iter().flatten().next().map(|e| e.to_string());
    (out, first)
}

/// Whether bounds checks stay on in trusted kernels too (`WGPU_MSM_BOUNDS_CHECKS=1`).
#[cfg(not(target_arch = "wasm32"))]
fn force_checks() -> bool {
    std::env::var("WGPU_MSM_BOUNDS_CHECKS").is_ok_and(|v| v == "1")
}

/// Creates a shader module. `trusted` modules run without wgpu's injected bounds checks:
/// the MSM kernels guard every index against the sizes they are given, and the checks
/// cost registers and instructions in the innermost loops.
#[cfg(not(target_arch = "wasm32"))]
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
#[cfg(not(target_arch = "wasm32"))]
fn gl_compile_turn() -> std::sync::MutexGuard<'static, ()> {
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}
