//! The one error type of the public API.

/// Everything that can go wrong in `wgpu-msm`, as values a caller can match on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No adapter could be opened. `hint` says what to check on this platform.
    #[error("no GPU adapter found: {hint}")]
    NoDevice {
        /// What to check (drivers, loaders, `WGPU_MSM_DEVICES`).
        hint: String,
    },
    /// A device selection (`WGPU_MSM_DEVICES`, or one given explicitly) matched none of
    /// the adapters wgpu enumerated; `adapters` lists them, one entry each.
    #[error(
        "the device selection {selection:?} matched none of the {} adapter(s) found: {}",
        adapters.len(),
        adapters.join("; ")
    )]
    NoMatchingDevice {
        /// The selection as given, e.g. `"7"` or `"h200"`.
        selection: String,
        /// Each adapter found: its index in the selectable list (where it has one),
        /// name, backend and type.
        adapters: Vec<String>,
    },
    /// A job needs more host memory than the host has available: checked before
    /// allocating, so the answer is this error rather than an abort.
    #[error(
        "{what} needs {needed} bytes of host memory ({:.1} GiB) but {available} bytes ({:.1} GiB) are available",
        *needed as f64 / (1u64 << 30) as f64,
        *available as f64 / (1u64 << 30) as f64
    )]
    HostMemory {
        /// What needed it (e.g. "2^30 parity inputs").
        what: String,
        /// Bytes needed.
        needed: u64,
        /// Bytes the host has available (Linux: `MemAvailable`, within the cgroup's
        /// limit).
        available: u64,
    },
    /// A device index outside `0..count`.
    #[error("device index {index} out of range: {count} device(s) selected")]
    DeviceIndex {
        /// The index asked for.
        index: usize,
        /// How many devices there are.
        count: usize,
    },
    /// `bases` and `scalars` differ in length.
    #[error("length mismatch: {bases} bases but {scalars} scalars")]
    LengthMismatch {
        /// Number of bases.
        bases: usize,
        /// Number of scalars.
        scalars: usize,
    },
    /// A base is not on the MSM's curve (checked on the device for every base, for
    /// every group).
    #[error("base {index} is not on the curve")]
    PointNotOnCurve {
        /// The first offending index found.
        index: usize,
    },
    /// A handle made on one device was used with another.
    #[error("{what} belongs to device #{owner} but was used on device #{used}")]
    WrongDevice {
        /// What was misused (e.g. "DeviceBases").
        what: &'static str,
        /// Unique id of the device that owns it.
        owner: u64,
        /// Unique id of the device it was used on.
        used: u64,
    },
    /// A request beyond what the device or the configured budget allows.
    #[error("{what}: requested {requested}, at most {max}")]
    LimitExceeded {
        /// Which limit.
        what: &'static str,
        /// What was asked for.
        requested: u64,
        /// The limit.
        max: u64,
    },
    /// The device could not allocate what an MSM needs.
    #[error("out of device memory: needed {requested} bytes, budget or limit {available} bytes")]
    OutOfMemory {
        /// Bytes the operation needed.
        requested: u64,
        /// Bytes available to it.
        available: u64,
    },
    /// A configuration value that cannot work.
    #[error("invalid configuration: {0}")]
    InvalidConfig(String),
    /// An environment variable that overrides the tuning holds a value that does not
    /// parse (see `Tuning::with_env`).
    #[error("{var}={value:?} is not valid: expected {expected}")]
    BadEnv {
        /// The variable.
        var: &'static str,
        /// Its value.
        value: String,
        /// What it may hold.
        expected: &'static str,
    },
    /// A shader failed to compile or validate; names the module and entry point.
    #[error("shader `{entry}` failed: {message}")]
    Shader {
        /// Entry point or module name.
        entry: String,
        /// The compiler's message.
        message: String,
    },
    /// A kernel's pipeline could not be built on a device: the driver rejected it
    /// (validation, internal or out-of-memory error), its compiler thread panicked, or
    /// it was not built within the device's `Tuning::kernel_build_limit`.
    #[error("building kernel `{kernel}` on {device} failed: {message}")]
    KernelBuild {
        /// The device's name.
        device: String,
        /// The shader module or entry point(s), e.g. `portable32/msm/accumulate`.
        kernel: String,
        /// What went wrong.
        message: String,
    },
    /// A wgpu error raised while running work on the device.
    #[error("GPU error on `{context}`: {message}")]
    Gpu {
        /// What the library was doing.
        context: String,
        /// wgpu's message.
        message: String,
    },
    /// Opening a device failed.
    #[error("requesting a device failed: {0}")]
    RequestDevice(#[from] wgpu::RequestDeviceError),
    /// Mapping a buffer for readback failed.
    #[error("buffer readback failed: {0}")]
    Map(#[from] wgpu::BufferAsyncError),
    /// The device was lost or a wait failed.
    #[error("device poll failed: {0}")]
    Poll(#[from] wgpu::PollError),
    /// Every device of a cluster failed.
    #[error("all devices failed; last error: {0}")]
    AllDevicesFailed(Box<Error>),
    /// The operation was cancelled (its future dropped) or its worker went away.
    #[error("operation cancelled")]
    Cancelled,
}

/// Shorthand for `Result<T, wgpu_msm::Error>`.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// `Ok` when an MSM's `bases` and `scalars` counts agree, else
    /// [`Error::LengthMismatch`].
    pub(crate) fn check_lengths(bases: usize, scalars: usize) -> Result<()> {
        if bases == scalars {
            Ok(())
        } else {
            Err(Error::LengthMismatch { bases, scalars })
        }
    }
}
