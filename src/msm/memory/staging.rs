//! Host-visible upload buffers kept across chunks and calls. The host converts inputs
//! straight into one while it is mapped; the device copies it into a slot buffer, or
//! (see `Tuning::direct_uploads`) its kernels read it where it is; after the submission that
//! reads it the buffer is mapped again for its next use. wgpu's own
//! `write_buffer` instead allocates fresh staging memory for every write, which on a
//! large streamed MSM is most of the host's time (and two devices fed from one host
//! share it).

use crate::device::gpu;
use crate::device::Device;
use crate::error::{Error, Result};
use futures_intrusive::channel::shared::{oneshot_channel, OneshotSender};
use std::sync::{Arc, Mutex, PoisonError};

/// Where an upload buffer is in its cycle.
enum State {
    /// Mapped: the host may write.
    Mapped,
    /// Mapping requested; it completes once this submission (which reads the buffer),
    /// or all work when `None`, is done. A waiter, if any, is told then.
    Mapping(Option<wgpu::SubmissionIndex>, Option<OneshotSender<()>>),
    /// Neither: written and handed to the device, not yet recycled.
    Unmapped,
    /// The mapping failed.
    Failed(wgpu::BufferAsyncError),
}

/// One reusable upload buffer (MAP_WRITE | COPY_SRC, and STORAGE when kernels read
/// it in place). The state lives beside the
/// buffer so that a mapping finishing after its waiter was dropped (a cancelled MSM)
/// still leaves the buffer ready for the next job.
pub(crate) struct Staging {
    buffer: wgpu::Buffer,
    state: Arc<Mutex<State>>,
}

impl Staging {
    /// A buffer of `size` bytes, bindable as storage when `in_place`: mapped and ready
    /// to write, or with `cleared_by_device` neither, for [`Staging::clear`] and then
    /// [`Staging::recycle`].
    ///
    /// wgpu zeroes a buffer mapped at creation on the host, through the mapping: for
    /// the upload buffers of a large MSM, hundreds of MB written by one thread into
    /// memory behind the BAR, each page faulted in as it goes (tens of milliseconds for
    /// a large arena, see docs/). Cleared by the device
    /// instead, the buffer needs `COPY_DST` beside `MAP_WRITE`, which wgpu allows with
    /// `MAPPABLE_PRIMARY_BUFFERS`.
    pub(crate) fn new(
        device: &wgpu::Device,
        label: &str,
        size: u64,
        in_place: bool,
        cleared_by_device: bool,
    ) -> Result<Staging> {
        let mut usage = wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC;
        if in_place {
            usage |= wgpu::BufferUsages::STORAGE;
        }
        if cleared_by_device {
            usage |= wgpu::BufferUsages::COPY_DST;
        }
        let state = if cleared_by_device {
            State::Unmapped
        } else {
            State::Mapped
        };
        Ok(Staging {
            buffer: gpu::create_buffer_mapped(device, label, size, usage, !cleared_by_device)?,
            state: Arc::new(Mutex::new(state)),
        })
    }

    /// Records the device's zeroing of a buffer made with `cleared_by_device` (which
    /// wgpu then counts as initialized: mapping it writes nothing).
    pub(crate) fn clear(&self, enc: &mut wgpu::CommandEncoder) {
        enc.clear_buffer(&self.buffer, 0, None);
    }

    /// Marks the buffer as mapping once `after` (or all work) is done; the caller then
    /// calls [`Staging::map`] without holding the lock (wgpu may run the callback at
    /// once).
    fn begin_map(&self, after: Option<wgpu::SubmissionIndex>) -> bool {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if matches!(*s, State::Unmapped) {
            *s = State::Mapping(after, None);
            return true;
        }
        false
    }

    /// Requests the mapping; the callback records the outcome and tells a waiter.
    fn map(&self) {
        let shared = Arc::clone(&self.state);
        self.buffer.map_async(wgpu::MapMode::Write, .., move |r| {
            let mut s = shared.lock().unwrap_or_else(PoisonError::into_inner);
            let waiter = match std::mem::replace(&mut *s, State::Mapped) {
                State::Mapping(_, w) => w,
                _ => None,
            };
            if let Err(e) = r {
                *s = State::Failed(e);
            }
            drop(s);
            if let Some(w) = waiter {
                let _ = w.send(());
            }
        });
    }

    /// Waits until the buffer is mapped (its last copy done).
    pub(crate) async fn ready(&self, dev: &Device) -> Result<()> {
        if self.begin_map(None) {
            self.map();
        }
        let (rx, after) = {
            let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            match &mut *s {
                State::Mapped => return Ok(()),
                State::Failed(e) => return Err(Error::Map(e.clone())),
                State::Unmapped => return Err(Error::Cancelled),
                State::Mapping(after, waiter) => {
                    let (tx, rx) = oneshot_channel();
                    *waiter = Some(tx);
                    (rx, after.clone())
                }
            }
        };
        match after {
            Some(index) => dev.inner.poller.wake_until(index),
            None => dev.inner.poller.wake(),
        }
        rx.receive().await;
        match &*self.state.lock().unwrap_or_else(PoisonError::into_inner) {
            State::Mapped => Ok(()),
            State::Failed(e) => Err(Error::Map(e.clone())),
            _ => Err(Error::Cancelled),
        }
    }

    /// Whether the buffer is mapped now (free to write without waiting).
    pub(crate) fn is_mapped(&self) -> bool {
        matches!(
            *self.state.lock().unwrap_or_else(PoisonError::into_inner),
            State::Mapped
        )
    }

    /// Writes the first `len` bytes with `fill` (and `extra`'s bytes at its offset),
    /// once the buffer is free, and unmaps it for the device to read. Returns how long
    /// the writing itself took (not the wait).
    pub(crate) async fn fill(
        &self,
        dev: &Device,
        len: u64,
        fill: impl FnOnce(wgpu::WriteOnly<'_, [u8]>),
        extra: Option<(u64, &[u8])>,
    ) -> Result<std::time::Duration> {
        let t_ready = crate::time::Instant::now();
        self.ready(dev).await?;
        log::trace!(
            "staging: {} ready after {:.2} ms",
            self.buffer.size(),
            t_ready.elapsed().as_secs_f64() * 1e3
        );
        self.write(len, fill, extra)
    }

    /// [`Staging::fill`] of a buffer that is mapped now ([`Staging::is_mapped`]);
    /// [`Error::Cancelled`] when it is not.
    pub(crate) fn write(
        &self,
        len: u64,
        fill: impl FnOnce(wgpu::WriteOnly<'_, [u8]>),
        extra: Option<(u64, &[u8])>,
    ) -> Result<std::time::Duration> {
        if !self.is_mapped() {
            return Err(Error::Cancelled);
        }
        let t = crate::time::Instant::now();
        if len > 0 {
            let mut view = self
                .buffer
                .slice(..len)
                .get_mapped_range_mut()
                .map_err(|e| Error::Gpu {
                    context: "upload".into(),
                    message: e.to_string(),
                })?;
            fill(view.slice(..));
        }
        if let Some((at, bytes)) = extra {
            let end = at + bytes.len() as u64;
            let mut view = self
                .buffer
                .slice(at..end)
                .get_mapped_range_mut()
                .map_err(|e| Error::Gpu {
                    context: "upload".into(),
                    message: e.to_string(),
                })?;
            view.slice(..).copy_from_slice(bytes);
        }
        self.buffer.unmap();
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = State::Unmapped;
        Ok(t.elapsed())
    }

    /// The first `len` bytes, bound in place.
    pub(crate) fn binding(&self, len: u64) -> wgpu::BufferBinding<'_> {
        wgpu::BufferBinding {
            buffer: &self.buffer,
            offset: 0,
            size: wgpu::BufferSize::new(len),
        }
    }

    /// Records the copy of `len` bytes from `from` to `dst` at `offset`.
    pub(crate) fn copy_to(
        &self,
        enc: &mut wgpu::CommandEncoder,
        from: u64,
        dst: &wgpu::Buffer,
        offset: u64,
        len: u64,
    ) {
        if len > 0 {
            enc.copy_buffer_to_buffer(&self.buffer, from, dst, offset, len);
        }
    }

    /// Maps the buffer again for its next use, once submission `index` (the last that
    /// reads it, by copy or in place) is done.
    pub(crate) fn recycle(&self, index: wgpu::SubmissionIndex) {
        if self.begin_map(Some(index)) {
            self.map();
        }
    }
}
