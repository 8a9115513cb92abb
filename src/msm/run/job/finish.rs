//! The end of a job: wait for its readback, combine every MSM's window sums, and
//! record the profile (device timestamps and host events) when one was asked.

use super::{Job, JobOutput, STAMPS_PER_PASS};
use crate::curve::Group;
use crate::device::gpu;
use crate::error::Result;
use crate::msm::stages::combine;
use crate::msm::StageProfile;
use crate::time::Instant;

/// How long the host polls for a job's readback before it sleeps until the final
/// reduction is about to run: a small MSM's whole wait (a thread put to sleep wakes up
/// late after the callback that wakes it), a large one's first millisecond.
#[cfg(not(target_arch = "wasm32"))]
const READBACK_SPIN: std::time::Duration = std::time::Duration::from_millis(1);

impl Job<'_> {
    /// Waits for the readback and combines every MSM's window sums (summed over its
    /// passes, then weighted by powers of two). Records the profile when one was asked.
    pub(crate) async fn finish<C: Group>(self) -> Result<JobOutput<C>> {
        let t_read = Instant::now();
        let before = self
            .before_reduce
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let out = match before {
            // Poll at once for a short while (`READBACK_SPIN`); past that, sleep until the
            // final reduction is about to run (a blocking wait wakes up late), then poll
            // for its short rest; off on software adapters, where
            // polling would take a core from the computation (`Tuning::poll_readback`).
            // In a browser the readback is awaited: polling does nothing there.
            #[cfg(not(target_arch = "wasm32"))]
            Some((index, done)) if self.tuning.poll_readback => {
                let (words, t) = gpu::read_words_after(
                    self.dev,
                    &self.readback.buffer,
                    index,
                    done,
                    READBACK_SPIN,
                )
                .await?;
                self.event("wake".into(), t.woke, t.woke);
                self.event(format!("last of {} polls", t.polls), t.last_poll, t.mapped);
                self.event("copy out".into(), t.mapped, t.copied);
                self.event("unmap".into(), t.copied, t.unmapped);
                words
            }
            _ => gpu::read_words(self.dev, &self.readback.buffer).await?,
        };
        self.event("readback".into(), t_read, Instant::now());
        // Read and unmapped: the buffer may serve the next job.
        self.readback
            .done
            .store(true, std::sync::atomic::Ordering::Release);
        let t_combine = Instant::now();
        let submits = *self.submits.lock().unwrap_or_else(|e| e.into_inner());
        let mut has_passes = vec![false; self.msms];
        for &o in &self.owners {
            has_passes[o] = true;
        }
        let results = combine::combine::<C>(&out, &self.plan, &has_passes);
        let flags = out[(self.flags_at / 4) as usize..][..self.flags].to_vec();
        let counts = &out[(self.running_at / 4) as usize..][..3];
        let (arrived, running) = (counts[0], counts[2]);
        // A pass whose workgroups all ran at once says only that the device holds at
        // least that many; one where some waited for others says how many it holds.
        if running < arrived {
            let before = self
                .kernels
                .most_running
                .fetch_max(running, std::sync::atomic::Ordering::Relaxed);
            if let (true, Some(name)) = (running > before, &self.kernels.waves_kept_as) {
                crate::msm::waves::remember(self.dev.info(), name, running);
            }
        }
        if let Some(q) = &self.queries {
            let upload = *self.upload.lock().unwrap_or_else(|e| e.into_inner());
            let mut prof = StageProfile {
                upload_ms: upload.0,
                upload_wait_ms: upload.1,
                upload_bytes: upload.2,
                ..Default::default()
            };
            let period = self.dev.inner.queue.get_timestamp_period();
            let ticks: Vec<u64> = out[(self.stamps_at / 4) as usize..][..2 * q.count as usize]
                .chunks_exact(2)
                .map(|w| u64::from(w[0]) | (u64::from(w[1]) << 32))
                .collect();
            for pass_ticks in ticks.chunks_exact(STAMPS_PER_PASS as usize) {
                prof.add_pass(pass_ticks, period);
            }
            let first = ticks.iter().copied().filter(|&t| t != 0).min().unwrap_or(0);
            // Device times placed from the first submission on (see the timeline's doc).
            let offset = submits.map_or(0.0, |(f, _)| (f - self.started).as_secs_f64() * 1e3);
            for (k, pass_ticks) in ticks.chunks_exact(STAMPS_PER_PASS as usize).enumerate() {
                prof.add_pass_timeline(k, pass_ticks, period, first, offset);
            }
            let last = ticks.iter().copied().max().unwrap_or(0);
            prof.span_ms = last.saturating_sub(first) as f64 * f64::from(period) / 1e6;
            prof.combine_ms = t_combine.elapsed().as_secs_f64() * 1e3;
            if let Some((first, last)) = submits {
                let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
                prof.lead_ms = ms(first - self.started);
                prof.drain_ms = ms(t_combine - last);
            }
            prof.total_ms = self.started.elapsed().as_secs_f64() * 1e3;
            prof.passes = self.owners.len();
            prof.running = running;
            self.event("combine".into(), t_combine, Instant::now());
            let since = |t: Instant| (t - self.started).as_secs_f64() * 1e3;
            let events =
                std::mem::take(&mut *self.events.lock().unwrap_or_else(|e| e.into_inner()));
            prof.timeline.extend(events.into_iter().map(|(what, s, e)| {
                crate::msm::TimelineEvent {
                    on: "host",
                    what,
                    start_ms: since(s),
                    end_ms: since(e),
                }
            }));
            prof.timeline
                .sort_by(|a, b| a.start_ms.total_cmp(&b.start_ms));
            *self
                .dev
                .msm_state()?
                .profile
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = Some(prof);
        }
        Ok(JobOutput { results, flags })
    }
}
