//! # wgpu-msm-web
//!
//! wgpu-msm in the browser: the browser's WebGPU adapter through wgpu (wasm32), and the
//! crate's WGSL kernels run on it and checked against arkworks compiled to WebAssembly.
//!
//! The full MSM runs through the core crate's async API (`Device::all_async`,
//! `msm_async`, `upload_bases_async` + `msm_with_async`, `msm_batch_async`), which
//! never blocks the browser's event loop; the per-operation test kernels
//! (`test_fq_mul`, `test_curve_madd`) are checked here too.
//!
//! Modules: [`portable`] (one program for both targets, checked against arkworks),
//! [`bytes`] (inputs and results in arkworks' uncompressed serialization), [`gpu`]
//! (adapter and device, async), [`compile`] (modules and pipelines, timed),
//! [`opcheck`] (the kernels against arkworks), [`error`]; on wasm32 the `js` module
//! exports the JavaScript API (`WgpuMsm`) and the page's helpers.

#![deny(missing_docs)]

pub mod bytes;
pub mod compile;
pub mod error;
pub mod gpu;
#[cfg(target_arch = "wasm32")]
mod js;
pub mod opcheck;
pub mod portable;

pub use error::{Result, WebError};
pub use gpu::{BrowserGpu, GpuSummary};
pub use opcheck::{curve_madd, field_mul, KernelReport};
