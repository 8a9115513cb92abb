//! Small wgpu helpers shared by the MSM and the test kernels: layouts, pipelines built
//! inside error scopes, buffers, and readback.

use crate::device::Device;
use crate::error::{Error, Result};

/// A bind-group-layout entry for a storage buffer visible to compute shaders.
pub(crate) fn storage_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// A bind-group-layout entry for a uniform buffer visible to compute shaders.
pub(crate) fn uniform_entry(binding: u32, has_dynamic_offset: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset,
            min_binding_size: None,
        },
        count: None,
    }
}

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
        // totals), which the host sizes the buffers for; see msm/plan.rs.
        unsafe { device.create_shader_module_trusted(desc, wgpu::ShaderRuntimeChecks::unchecked()) }
    } else {
        device.create_shader_module(desc)
    }
}

/// The process's turn to compile a pipeline on wgpu's GL backend, held while it
/// compiles. That backend compiles each pipeline under its adapter's one context lock,
/// and a thread that waits more than 6 s for the lock panics ("Could not lock adapter
/// context"); llvmpipe takes seconds for a curve kernel without Mesa's shader cache,
/// so compiler threads queued there panicked. Queued here instead, they wait without
/// a limit, one compiling at a time (every GL device of the process, since two
/// handles of one adapter share its context).
fn gl_compile_turn() -> std::sync::MutexGuard<'static, ()> {
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Creates a buffer inside an out-of-memory scope, so a failed allocation is an
/// [`Error::OutOfMemory`] instead of a panic or a lost device.
pub(crate) fn create_buffer(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    usage: wgpu::BufferUsages,
) -> Result<wgpu::Buffer> {
    create_buffer_mapped(device, label, size, usage, false)
}

/// [`create_buffer`], optionally mapped at creation (for upload buffers).
pub(crate) fn create_buffer_mapped(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    usage: wgpu::BufferUsages,
    mapped_at_creation: bool,
) -> Result<wgpu::Buffer> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let vscope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let buf = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.max(4).next_multiple_of(4),
        usage,
        mapped_at_creation,
    });
    let verr = pollster::block_on(vscope.pop());
    let oom = pollster::block_on(scope.pop());
    if oom.is_some() {
        return Err(Error::OutOfMemory {
            requested: size,
            available: device.limits().max_buffer_size,
        });
    }
    if let Some(e) = verr {
        return Err(Error::Gpu {
            context: label.to_string(),
            message: e.to_string(),
        });
    }
    Ok(buf)
}

/// Usage of a storage buffer written from the host and read back.
pub(crate) const STORAGE: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::COPY_DST)
    .union(wgpu::BufferUsages::COPY_SRC);

/// Maps `staging` (a MAP_READ buffer whose copy was submitted) and returns its words.
///
/// wgpu only runs map callbacks from `Device::poll`; the device's poller thread does that,
/// so this future never blocks its executor. The callback reports through a oneshot
/// channel.
pub(crate) async fn read_words(dev: &Device, staging: &wgpu::Buffer) -> Result<Vec<u32>> {
    let (tx, rx) = futures_intrusive::channel::shared::oneshot_channel();
    staging.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send(r);
    });
    dev.inner.poller.wake();
    Ok(finish_read(staging, rx).await?.0)
}

/// When the steps of a [`read_words_after`] happened (for profiles).
pub(crate) struct ReadTimes {
    /// Polling began.
    pub woke: std::time::Instant,
    /// The map callback ran.
    pub mapped: std::time::Instant,
    /// The poll that ran it began.
    pub last_poll: std::time::Instant,
    /// Polls made.
    pub polls: u32,
    /// The words were copied out.
    pub copied: std::time::Instant,
    /// The buffer was unmapped.
    pub unmapped: std::time::Instant,
}

/// [`read_words`] for a buffer whose copy is in the submission after `before`: the
/// poller thread waits for `before` (and `done` says it is), then this thread polls the
/// device until the mapping is done (no wake-up latency on the short rest; one busy
/// core meanwhile). Also says when its steps happened.
pub(crate) async fn read_words_after(
    dev: &Device,
    staging: &wgpu::Buffer,
    before: wgpu::SubmissionIndex,
    done: futures_intrusive::channel::shared::OneshotReceiver<()>,
) -> Result<(Vec<u32>, ReadTimes)> {
    let (tx, rx) = futures_intrusive::channel::shared::oneshot_channel();
    let mapped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = std::sync::Arc::clone(&mapped);
    let at = std::sync::Arc::new(std::sync::Mutex::new(None));
    let at_cb = std::sync::Arc::clone(&at);
    staging.map_async(wgpu::MapMode::Read, .., move |r| {
        *at_cb.lock().unwrap_or_else(|e| e.into_inner()) = Some(std::time::Instant::now());
        let _ = tx.send(r);
        flag.store(true, std::sync::atomic::Ordering::Release);
    });
    dev.inner.poller.wake_until(before);
    done.receive().await;
    let woke = std::time::Instant::now();
    let mut polls = 0;
    let mut last_poll = woke;
    while !mapped.load(std::sync::atomic::Ordering::Acquire) {
        last_poll = std::time::Instant::now();
        polls += 1;
        if let Err(e) = dev.inner.device.poll(wgpu::PollType::Poll) {
            return Err(Error::Gpu {
                context: "readback".into(),
                message: e.to_string(),
            });
        }
        std::hint::spin_loop();
    }
    let (words, copied) = finish_read(staging, rx).await?;
    let unmapped = std::time::Instant::now();
    let mapped = at.lock().unwrap_or_else(|e| e.into_inner()).unwrap_or(woke);
    Ok((
        words,
        ReadTimes {
            woke,
            mapped,
            last_poll,
            polls,
            copied,
            unmapped,
        },
    ))
}

/// The words of `staging` once `rx` reports its mapping, and when they were copied out
/// (before the unmapping).
async fn finish_read(
    staging: &wgpu::Buffer,
    rx: futures_intrusive::channel::shared::OneshotReceiver<
        std::result::Result<(), wgpu::BufferAsyncError>,
    >,
) -> Result<(Vec<u32>, std::time::Instant)> {
    match rx.receive().await {
        Some(Ok(())) => {}
        Some(Err(e)) => return Err(Error::Map(e)),
        None => return Err(Error::Cancelled),
    }
    let words = {
        let view = staging.get_mapped_range(..).map_err(|e| Error::Gpu {
            context: "readback".into(),
            message: e.to_string(),
        })?;
        bytemuck::cast_slice::<u8, u32>(&view).to_vec()
    };
    let copied = std::time::Instant::now();
    staging.unmap();
    Ok((words, copied))
}

/// A bind group of whole buffers, bound at 0, 1, 2, ... in order (checked).
pub(crate) fn bind_whole(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    label: &str,
    buffers: &[&wgpu::Buffer],
) -> Result<wgpu::BindGroup> {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
        .iter()
        .enumerate()
        .map(|(i, b)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: b.as_entire_binding(),
        })
        .collect();
    checked(device, label, || {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout,
            entries: &entries,
        })
    })
}

/// Runs `f` inside a validation scope and turns a captured error into [`Error::Gpu`].
pub(crate) fn checked<T>(device: &wgpu::Device, context: &str, f: impl FnOnce() -> T) -> Result<T> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let out = f();
    match pollster::block_on(scope.pop()) {
        Some(e) => Err(Error::Gpu {
            context: context.to_string(),
            message: e.to_string(),
        }),
        None => Ok(out),
    }
}
