//! One polling thread per device, so readbacks complete without blocking the caller.
//!
//! wgpu runs `map_async` callbacks only from `Device::poll`. Rather than have every
//! future block its executor in `poll`, each pending readback pings this thread, which
//! waits on the device until the submitted work is done and the callbacks have run.

use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;

/// Owns the polling thread of one device; dropping it ends the thread and waits for it,
/// so the device is never torn down by a thread racing the process's exit.
pub(crate) struct Poller {
    tx: Mutex<Option<Sender<()>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Poller {
    pub(crate) fn new(device: wgpu::Device) -> Poller {
        let (tx, rx) = channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("wgpu-msm-poll".into())
            .spawn(move || {
                while rx.recv().is_ok() {
                    // Drain pings that arrived meanwhile: one wait covers them all.
                    while rx.try_recv().is_ok() {}
                    if let Err(e) = device.poll(wgpu::PollType::wait_indefinitely()) {
                        log::error!("device poll failed: {e}");
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
        if let Ok(guard) = self.tx.lock() {
            if let Some(tx) = guard.as_ref() {
                let _ = tx.send(());
            }
        }
    }
}

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
