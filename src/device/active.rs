//! ICICLE's multi-GPU vocabulary as a thin layer over explicit [`Device`] handles:
//! a process-wide device list, a per-thread active device and `run_on_device`.

use super::Device;
use crate::error::{Error, Result};
use std::cell::Cell;
use std::sync::OnceLock;

static DEVICES: OnceLock<std::result::Result<Vec<Device>, String>> = OnceLock::new();

thread_local! {
    static ACTIVE: Cell<usize> = const { Cell::new(0) };
}

fn devices() -> Result<&'static [Device]> {
    match DEVICES.get_or_init(|| Device::all().map_err(|e| e.to_string())) {
        Ok(v) => Ok(v),
        Err(hint) => Err(Error::NoDevice { hint: hint.clone() }),
    }
}

/// Number of selected devices (opens them on first use).
///
/// # Errors
/// [`Error::NoDevice`] when none could be opened.
pub fn device_count() -> Result<usize> {
    Ok(devices()?.len())
}

/// Makes device `index` the calling thread's active device.
///
/// # Errors
/// [`Error::DeviceIndex`] when `index >= device_count()`.
pub fn set_device(index: usize) -> Result<()> {
    let count = device_count()?;
    if index >= count {
        return Err(Error::DeviceIndex { index, count });
    }
    ACTIVE.with(|a| a.set(index));
    Ok(())
}

/// The calling thread's active device (device 0 unless [`set_device`] chose another).
///
/// # Errors
/// [`Error::NoDevice`] when no device could be opened.
pub fn active_device() -> Result<Device> {
    let list = devices()?;
    let i = ACTIVE.with(Cell::get);
    list.get(i).cloned().ok_or(Error::DeviceIndex {
        index: i,
        count: list.len(),
    })
}

/// Runs `f` on a new thread whose active device is `index`, and returns its result.
///
/// # Errors
/// [`Error::DeviceIndex`] for a bad index; [`Error::Cancelled`] if `f` panicked.
pub fn run_on_device<T: Send, F: FnOnce() -> T + Send>(index: usize, f: F) -> Result<T> {
    let count = device_count()?;
    if index >= count {
        return Err(Error::DeviceIndex { index, count });
    }
    std::thread::scope(|s| {
        s.spawn(move || {
            ACTIVE.with(|a| a.set(index));
            f()
        })
        .join()
        .map_err(|_| Error::Cancelled)
    })
}
