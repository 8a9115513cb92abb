//! # wgpu-msm-web
//!
//! wgpu-msm in the browser: the browser's WebGPU adapter through wgpu (wasm32), and the
//! crate's WGSL kernels run on it and checked against arkworks compiled to WebAssembly.
//!
//! This is the groundwork of the browser port (issue 28): it opens the adapter and runs
//! per-operation test kernels (`test_fq_mul`, `test_curve_madd`, portable 32-bit path)
//! entirely async,
//! because nothing may block the browser's event loop. The full MSM waits for the core
//! crate's async, thread-free path (docs/browser.md lists what it needs).
//!
//! Modules: [`gpu`] (adapter and device, async), [`compile`] (modules and pipelines,
//! timed), [`opcheck`] (the kernels against arkworks), [`error`]; on wasm32 the `js`
//! module exports them to JavaScript for `index.html`.

#![deny(missing_docs)]

pub mod compile;
pub mod error;
pub mod gpu;
#[cfg(target_arch = "wasm32")]
mod js;
pub mod opcheck;

pub use error::{Result, WebError};
pub use gpu::{BrowserGpu, GpuSummary};
pub use opcheck::{curve_madd, field_mul, KernelReport};
