//! Submitting a job's commands: each submission timed (a slow one is logged with where
//! its time went), retired by the device's polling thread where the MSM state says so,
//! and the job's final reduction held back into a submission of its own, so that the
//! host can sleep until it starts.

use super::Job;
use crate::device::gpu;
use crate::error::Result;
use crate::msm::stages;
use crate::time::Instant;

/// A submission slower than this is logged (debug) with where its time went.
const SLOW_SUBMIT: std::time::Duration = std::time::Duration::from_millis(1);

impl Job<'_> {
    /// Finishes `enc` into a command buffer for [`Job::submit_commands`] (wgpu encodes
    /// the recorded commands here, a noticeable part of a pass's host time: streamed
    /// passes finish theirs while their inputs are still being written).
    pub(crate) fn finish_commands(&self, enc: wgpu::CommandEncoder) -> wgpu::CommandBuffer {
        let now = Instant::now();
        let cb = enc.finish();
        self.event("finish".into(), now, Instant::now());
        cb
    }

    /// Submits `enc`. The job's last submission must come through [`Job::submit_last`].
    pub(crate) fn submit(&self, enc: wgpu::CommandEncoder) -> Result<wgpu::SubmissionIndex> {
        self.submit_commands(self.finish_commands(enc))
    }

    /// Submits the finished commands `cb` ([`Job::submit`] of an encoder finished
    /// before).
    pub(crate) fn submit_commands(&self, cb: wgpu::CommandBuffer) -> Result<wgpu::SubmissionIndex> {
        let now = Instant::now();
        let mut s = self.submits.lock().unwrap_or_else(|e| e.into_inner());
        *s = Some((s.map_or(now, |(first, _)| first), now));
        drop(s);
        let queue = &self.dev.inner.queue;
        let times = crate::device::ThreadTimes::for_debug();
        let index = gpu::checked(&self.dev.inner.device, "msm submit", || queue.submit([cb]))?;
        if self.tuning.retire_on_poller {
            self.dev.inner.poller.wake_until(index.clone());
        }
        if let Some(t) = times {
            let took = now.elapsed();
            if took > SLOW_SUBMIT {
                log::debug!(
                    "{}: slow submission, {}",
                    self.dev.name(),
                    t.describe_since(took)
                );
            }
        }
        self.event("submit".into(), now, Instant::now());
        Ok(index)
    }

    /// Submits `enc`, then the job's final reduction in a submission of its own (on a
    /// GPU the host sleeps until the one before it is done and then polls for the
    /// short rest, see [`Job::finish`]), with the timestamps resolved into the readback
    /// buffer.
    pub(crate) fn submit_last(&self, enc: wgpu::CommandEncoder) -> Result<wgpu::SubmissionIndex> {
        self.submit_last_commands(self.finish_commands(enc))
    }

    /// [`Job::submit_last`] of commands finished before.
    pub(crate) fn submit_last_commands(
        &self,
        cb: wgpu::CommandBuffer,
    ) -> Result<wgpu::SubmissionIndex> {
        let held = self
            .final_reduce
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let mut enc = match held {
            Some((bind, index, n)) => {
                let before = self.submit_commands(cb)?;
                let (tx, rx) = futures_intrusive::channel::shared::oneshot_channel();
                self.dev.inner.queue.on_submitted_work_done(move || {
                    let _ = tx.send(());
                });
                *self.before_reduce.lock().unwrap_or_else(|e| e.into_inner()) = Some((before, rx));
                // The held-back reduce stage of the job's last pass, and the copy of its
                // window sums.
                let mut enc = self.encoder();
                let params = self.params(index, n);
                self.record(
                    &mut enc,
                    &bind,
                    None,
                    index,
                    &params,
                    stages::REDUCE..stages::REDUCE + 1,
                );
                enc
            }
            None => {
                // No reduction held back (every job's last pass holds it back; kept for
                // safety): the commands go alone, the query resolve after them.
                let before = self.submit_commands(cb)?;
                if self.queries.is_none() {
                    return Ok(before);
                }
                self.encoder()
            }
        };
        if let Some(q) = &self.queries {
            enc.resolve_query_set(&q.set, 0..q.count, &q.resolve, 0);
            let bytes = 8 * u64::from(q.count);
            enc.copy_buffer_to_buffer(&q.resolve, 0, &self.readback.buffer, self.stamps_at, bytes);
        }
        self.submit(enc)
    }
}
