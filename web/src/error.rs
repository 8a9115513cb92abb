//! The error values of the browser crate; JavaScript sees them as `Error` messages.

/// What can go wrong opening the browser's GPU or running a kernel on it.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// No adapter: the browser has no WebGPU (`navigator.gpu` missing or disabled) or
    /// refused every adapter.
    #[error("no WebGPU adapter: {0} (Chromium without a GPU needs --enable-unsafe-webgpu --enable-features=Vulkan --use-webgpu-adapter=swiftshader)")]
    NoAdapter(#[from] wgpu::RequestAdapterError),
    /// The adapter refused a device.
    #[error("WebGPU device request failed: {0}")]
    RequestDevice(#[from] wgpu::RequestDeviceError),
    /// A shader module or pipeline failed validation or compilation.
    #[error("shader `{entry}` failed: {message}")]
    Shader {
        /// The entry point being built.
        entry: String,
        /// The browser's (or wgpu's) message.
        message: String,
    },
    /// A readback buffer could not be mapped.
    #[error("readback failed: {0}")]
    Map(#[from] wgpu::BufferAsyncError),
    /// The device was lost, or the map callback was dropped before it ran.
    #[error("GPU readback did not complete: {0}")]
    Lost(String),
    /// An input is out of range (a size beyond the adapter's limits).
    #[error("{0}")]
    Invalid(String),
}

/// `Result` with [`WebError`].
pub type Result<T> = std::result::Result<T, WebError>;
