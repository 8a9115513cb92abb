//! The host: its cores, how much memory it has available, and the check a job makes
//! before it allocates host memory sized by its input, so that a job the host cannot
//! hold is an [`Error::HostMemory`] rather than an abort ("memory allocation of ...
//! failed").
//!
//! On a CPU adapter (lavapipe, llvmpipe, SwiftShader) the device's buffers are host
//! memory too; callers add them to what they check.

use crate::error::{Error, Result};
use ark_bn254::{Fr, G1Affine};

/// The threads this process can run at once (`std::thread::available_parallelism`,
/// 1 where unknown), read once: on Linux each query reads the process's affinity and
/// control group files, and an MSM asks for it on every call.
pub(crate) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Bytes of host memory available to this process, where the platform says: on Linux
/// `MemAvailable` of `/proc/meminfo`, capped by the memory limit of the process's
/// control group (v2 `memory.max` or v1 `memory.limit_in_bytes`) when one is set.
/// `None` elsewhere, or when none of these can be read.
pub fn available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let avail = meminfo_bytes(&meminfo, "MemAvailable")?;
    Some(cgroup_limit().map_or(avail, |limit| avail.min(limit)))
}

/// The value of `key` in `/proc/meminfo` text (given in kB), in bytes.
fn meminfo_bytes(meminfo: &str, key: &str) -> Option<u64> {
    meminfo.lines().find_map(|line| {
        let rest = line.strip_prefix(key)?.strip_prefix(':')?;
        let kb: u64 = rest.split_whitespace().next()?.parse().ok()?;
        Some(kb.saturating_mul(1024))
    })
}

/// The control group's memory limit in bytes, when one is set (v2 writes `max` for
/// none; v1 a number near `i64::MAX`).
fn cgroup_limit() -> Option<u64> {
    [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .filter_map(|p| std::fs::read_to_string(p).ok())
    .filter_map(|s| s.trim().parse::<u64>().ok())
    .find(|&limit| limit < 1 << 60)
}

/// `Ok` when `needed` bytes fit in what the host has [`available`] (or when that is
/// unknown), else [`Error::HostMemory`] naming `what`.
///
/// # Errors
/// [`Error::HostMemory`] when `needed` exceeds the available memory.
pub fn check(what: &str, needed: u64) -> Result<()> {
    match available() {
        Some(available) if needed > available => Err(Error::HostMemory {
            what: what.to_string(),
            needed,
            available,
        }),
        _ => Ok(()),
    }
}

/// Bytes of `n` bases and `n` scalars as arkworks holds them on the host.
pub fn input_bytes(n: usize) -> u64 {
    let per = std::mem::size_of::<G1Affine>() + std::mem::size_of::<Fr>();
    (n as u64).saturating_mul(per as u64)
}

/// Bytes arkworks' `VariableBaseMSM::msm` of `n` points allocates besides its inputs
/// (ark-ec 0.6, `msm_signed` then `msm_bigint_wnaf_parallel`): the scalars as big
/// integers (32 bytes a point), an index a point (8), the bases and scalars it regroups
/// (96), the signed digit of every window of c bits (8 bytes a window a point, c =
/// 0.69 log2(n) + 2), and the 2^c buckets (of at most 128 bytes) of each window in
/// flight, one a thread.
pub fn arkworks_msm_bytes(n: usize) -> u64 {
    let c = if n < 32 {
        3
    } else {
        (n.ilog2() as u64 * 69 / 100) + 2
    };
    let windows = 254u64.div_ceil(c);
    let threads = cores() as u64;
    let buckets = threads
        .min(windows)
        .saturating_mul(128u64.saturating_mul(1 << c));
    (n as u64)
        .saturating_mul(32 + 8 + 96 + 8 * windows)
        .saturating_add(buckets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_is_read_in_bytes() {
        let text = "MemTotal:       24684100 kB\nMemAvailable:   22796220 kB\n";
        assert_eq!(meminfo_bytes(text, "MemAvailable"), Some(22796220 * 1024));
        assert_eq!(meminfo_bytes(text, "MemFree"), None);
    }

    #[test]
    fn more_than_the_host_has_is_an_error() {
        if available().is_none() {
            return;
        }
        assert!(check("nothing", 0).is_ok());
        match check("2^40 inputs", input_bytes(1 << 40)) {
            Err(Error::HostMemory {
                what,
                needed,
                available,
            }) => {
                assert_eq!(what, "2^40 inputs");
                assert_eq!(needed, input_bytes(1 << 40));
                assert!(available < needed);
            }
            other => panic!("expected HostMemory, got {other:?}"),
        }
    }
}
