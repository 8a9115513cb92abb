//! One polling thread per device, so readbacks complete without blocking the caller.
//!
//! wgpu runs `map_async` callbacks only from `Device::poll`. Rather than have every
//! future block its executor in `poll`, each pending readback pings this thread, which
//! waits on the device until the submitted work (or one submission of it) is done and
//! the callbacks have run.

#[cfg(not(target_arch = "wasm32"))]
use std::sync::mpsc::{channel, Sender};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Mutex;

/// In a browser there is no thread to start and nothing to poll: the browser's event
/// loop runs the callbacks whenever the code awaits.
#[cfg(target_arch = "wasm32")]
pub(crate) struct Poller;

#[cfg(target_arch = "wasm32")]
impl Poller {
    pub(crate) fn new(_device: wgpu::Device) -> Poller {
        Poller
    }

    /// Nothing to do: the browser runs the callbacks.
    pub(crate) fn wake(&self) {}

    /// Nothing to do: the browser runs the callbacks.
    pub(crate) fn wake_until(&self, _index: wgpu::SubmissionIndex) {}
}

/// Owns the polling thread of one device; dropping it ends the thread and waits for it,
/// so the device is never torn down by a thread racing the process's exit.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) struct Poller {
    tx: Mutex<Option<Sender<Option<wgpu::SubmissionIndex>>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Poller {
    pub(crate) fn new(device: wgpu::Device) -> Poller {
        let (tx, rx) = channel::<Option<wgpu::SubmissionIndex>>();
        let spawned = std::thread::Builder::new()
            .name("wgpu-msm-poll".into())
            .spawn(move || {
                while let Ok(until) = rx.recv() {
                    if until.is_none() {
                        // Drain pings that arrived meanwhile: one wait for all the work
                        // submitted so far covers every one of them.
                        while rx.try_recv().is_ok() {}
                    }
                    let wait = wgpu::PollType::Wait {
                        submission_index: until,
                        timeout: None,
                    };
                    let t = crate::time::Instant::now();
                    let times = super::ThreadTimes::for_debug();
                    if let Err(e) = device.poll(wait) {
                        log::error!("device poll failed: {e}");
                    }
                    if let Some(times) = times {
                        log::debug!("poller: poll {}", times.describe_since(t.elapsed()));
                    }
                }
            });
        let thread = match spawned {
            Ok(t) => Some(t),
            Err(e) => {
                log::error!("could not start the polling thread: {e}");
                None
            }
        };
        Poller {
            tx: Mutex::new(Some(tx)),
            thread,
        }
    }

    /// Asks the thread to wait for all submitted work and run pending callbacks.
    pub(crate) fn wake(&self) {
        self.send(None);
    }

    /// Asks the thread to wait for submission `index` (not the ones after it) and run
    /// the callbacks of everything finished by then.
    pub(crate) fn wake_until(&self, index: wgpu::SubmissionIndex) {
        self.send(Some(index));
    }

    fn send(&self, until: Option<wgpu::SubmissionIndex>) {
        if let Ok(guard) = self.tx.lock() {
            if let Some(tx) = guard.as_ref() {
                let _ = tx.send(until);
            }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Drop for Poller {
    fn drop(&mut self) {
        if let Ok(mut guard) = self.tx.lock() {
            guard.take();
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
