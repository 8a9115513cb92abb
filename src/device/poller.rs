//! One polling thread per device, so readbacks complete without blocking the caller.
//!
//! wgpu runs `map_async` callbacks only from `Device::poll`. Rather than have every
//! future block its executor in `poll`, each pending readback pings this thread, which
//! waits on the device until the submitted work is done and the callbacks have run.

use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;

/// Owns the polling thread of one device; dropping it lets the thread end.
pub(crate) struct Poller {
    tx: Mutex<Sender<()>>,
}

impl Poller {
    pub(crate) fn new(device: wgpu::Device) -> Poller {
        let (tx, rx) = channel::<()>();
        let spawned = std::thread::Builder::new().name("wgpu-msm-poll".into()).spawn(move || {
            while rx.recv().is_ok() {
                // Drain pings that arrived meanwhile: one wait covers them all.
                while rx.try_recv().is_ok() {}
                if let Err(e) = device.poll(wgpu::PollType::wait_indefinitely()) {
                    log::error!("device poll failed: {e}");
                }
            }
        });
        if let Err(e) = spawned {
            log::error!("could not start the polling thread: {e}");
        }
        Poller { tx: Mutex::new(tx) }
    }

    /// Asks the thread to wait for all submitted work and run pending callbacks.
    pub(crate) fn wake(&self) {
        if let Ok(tx) = self.tx.lock() {
            let _ = tx.send(());
        }
    }
}
