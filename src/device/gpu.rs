//! Small wgpu helpers for compute work: bind-group-layout entries, buffers created
//! inside error scopes, bind groups, and readback through the device's polling thread.

use super::Device;
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
    #[cfg(target_arch = "wasm32")]
    {
        // The pops take effect now; their answers come once the code awaits
        // (`settled`).
        let verr = vscope.pop();
        deferred::defer(
            deferred::Check::OutOfMemory {
                requested: size,
                available: device.limits().max_buffer_size,
            },
            scope.pop(),
        );
        deferred::defer(deferred::Check::Gpu(label.to_string()), verr);
        Ok(buf)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let verr = pollster::block_on(vscope.pop());
        let oom = pollster::block_on(scope.pop());
        buffer_checked(buf, device, label, size, verr, oom)
    }
}

/// `buf`, or the error its scopes caught (out of memory first).
#[cfg(not(target_arch = "wasm32"))]
fn buffer_checked(
    buf: wgpu::Buffer,
    device: &wgpu::Device,
    label: &str,
    size: u64,
    verr: Option<wgpu::Error>,
    oom: Option<wgpu::Error>,
) -> Result<wgpu::Buffer> {
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
#[cfg(not(target_arch = "wasm32"))]
pub(crate) struct ReadTimes {
    /// Polling began, or resumed after the sleep that a longer wait than the spin
    /// takes.
    pub woke: crate::time::Instant,
    /// The map callback ran.
    pub mapped: crate::time::Instant,
    /// The poll that ran it began.
    pub last_poll: crate::time::Instant,
    /// Polls made.
    pub polls: u32,
    /// The words were copied out.
    pub copied: crate::time::Instant,
    /// The buffer was unmapped.
    pub unmapped: crate::time::Instant,
}

/// [`read_words`] for a buffer whose copy is in the submission after `before`: this
/// thread polls the device at once, for at most `spin` (a short job's whole rest, with
/// none of the late wake-ups of a thread put to sleep and woken by a callback); beyond
/// that the poller thread waits for `before` (and `done` says it is) while this one
/// sleeps, then this one polls again until the mapping is done (one busy core while
/// polling). Also says when its steps happened. Native only: it polls the device,
/// which in a browser does nothing (the callback runs only once the code awaits).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) async fn read_words_after(
    dev: &Device,
    staging: &wgpu::Buffer,
    before: wgpu::SubmissionIndex,
    done: futures_intrusive::channel::shared::OneshotReceiver<()>,
    spin: std::time::Duration,
) -> Result<(Vec<u32>, ReadTimes)> {
    let (tx, rx) = futures_intrusive::channel::shared::oneshot_channel();
    let mapped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = std::sync::Arc::clone(&mapped);
    let at = std::sync::Arc::new(std::sync::Mutex::new(None));
    let at_cb = std::sync::Arc::clone(&at);
    staging.map_async(wgpu::MapMode::Read, .., move |r| {
        *at_cb.lock().unwrap_or_else(|e| e.into_inner()) = Some(crate::time::Instant::now());
        let _ = tx.send(r);
        flag.store(true, std::sync::atomic::Ordering::Release);
    });
    dev.inner.poller.wake_until(before);
    let is_mapped = || mapped.load(std::sync::atomic::Ordering::Acquire);
    let poll = || {
        dev.inner
            .device
            .poll(wgpu::PollType::Poll)
            .map_err(|e| Error::Gpu {
                context: "readback".into(),
                message: e.to_string(),
            })
    };
    let began = crate::time::Instant::now();
    let mut polls = 0;
    let mut last_poll = began;
    while !is_mapped() && began.elapsed() < spin {
        last_poll = crate::time::Instant::now();
        polls += 1;
        poll()?;
        std::hint::spin_loop();
    }
    let mut woke = began;
    if !is_mapped() {
        done.receive().await;
        woke = crate::time::Instant::now();
    }
    while !is_mapped() {
        last_poll = crate::time::Instant::now();
        polls += 1;
        poll()?;
        std::hint::spin_loop();
    }
    let (words, copied) = finish_read(staging, rx).await?;
    let unmapped = crate::time::Instant::now();
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
) -> Result<(Vec<u32>, crate::time::Instant)> {
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
    let copied = crate::time::Instant::now();
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
///
/// In a browser the scope's answer comes only once the code awaits: the check is
/// deferred to [`settled`], which every async entry point awaits before it returns.
pub(crate) fn checked<T>(device: &wgpu::Device, context: &str, f: impl FnOnce() -> T) -> Result<T> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let out = f();
    #[cfg(target_arch = "wasm32")]
    {
        deferred::defer(deferred::Check::Gpu(context.to_string()), scope.pop());
        Ok(out)
    }
    #[cfg(not(target_arch = "wasm32"))]
    match pollster::block_on(scope.pop()) {
        Some(e) => Err(Error::Gpu {
            context: context.to_string(),
            message: e.to_string(),
        }),
        None => Ok(out),
    }
}

/// `r`, unless an error check deferred since the last call caught an error, which
/// then wins (it is why `r` went wrong, if it did). Natively checks are immediate and
/// this is `r`.
pub(crate) async fn settled<T>(r: Result<T>) -> Result<T> {
    #[cfg(target_arch = "wasm32")]
    deferred::settle().await?;
    r
}

/// Error scopes whose answers come later: in a browser an error scope's pop is a
/// promise that the event loop resolves, so nothing may wait for it on the spot.
#[cfg(target_arch = "wasm32")]
mod deferred {
    use crate::error::{Error, Result};
    use std::cell::RefCell;
    use std::future::Future;
    use std::pin::Pin;

    /// What a deferred scope guarded, which names its error.
    pub(crate) enum Check {
        /// A buffer allocation of `requested` bytes (the device's largest buffer is
        /// `available`).
        OutOfMemory { requested: u64, available: u64 },
        /// A validation scope around an operation named by the string.
        Gpu(String),
    }

    type Pop = Pin<Box<dyn Future<Output = Option<wgpu::Error>>>>;

    thread_local! {
        static PENDING: RefCell<Vec<(Check, Pop)>> = const { RefCell::new(Vec::new()) };
    }

    /// Keeps `pop` (a popped scope's answer) for [`settle`].
    pub(crate) fn defer(check: Check, pop: impl Future<Output = Option<wgpu::Error>> + 'static) {
        PENDING.with(|p| p.borrow_mut().push((check, Box::pin(pop))));
    }

    /// Awaits every deferred scope; the first that caught an error gives the error.
    pub(crate) async fn settle() -> Result<()> {
        let pending = PENDING.with(|p| std::mem::take(&mut *p.borrow_mut()));
        let mut first = None;
        for (check, pop) in pending {
            if let Some(e) = pop.await {
                first.get_or_insert(match check {
                    Check::OutOfMemory {
                        requested,
                        available,
                    } => Error::OutOfMemory {
                        requested,
                        available,
                    },
                    Check::Gpu(context) => Error::Gpu {
                        context,
                        message: e.to_string(),
                    },
                });
            }
        }
        first.map_or(Ok(()), Err)
    }
}
