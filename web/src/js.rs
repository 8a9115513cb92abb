//! The JavaScript face of the crate (for `index.html`): errors arrive as JS `Error`s.

use crate::{opcheck, BrowserGpu, KernelReport};
use wasm_bindgen::prelude::*;

/// Opens the browser's WebGPU adapter and describes it.
///
/// # Errors
/// A JS `Error` when the browser has no WebGPU adapter.
#[wasm_bindgen(js_name = adapterInfo)]
pub async fn adapter_info() -> Result<String, JsError> {
    let gpu = BrowserGpu::open().await?;
    Ok(gpu.summary().await.to_string())
}

/// Multiplies `n` random base-field pairs (from `seed`) on the browser's GPU with the
/// crate's `test_fq_mul` kernel and with arkworks in wasm; returns the report.
///
/// # Errors
/// A JS `Error` without WebGPU, on a shader or readback failure, or on a mismatch.
#[wasm_bindgen(js_name = checkFieldMul)]
pub async fn check_field_mul(n: u32, seed: u32) -> Result<String, JsError> {
    let gpu = BrowserGpu::open().await?;
    verdict(opcheck::field_mul(&gpu, n as usize, u64::from(seed)).await?)
}

/// Adds `n` pairs of points (special cases first, then random from `seed`) with the
/// crate's `test_curve_madd` kernel and with arkworks; returns the report.
///
/// # Errors
/// As [`check_field_mul`].
#[wasm_bindgen(js_name = checkCurveMadd)]
pub async fn check_curve_madd(n: u32, seed: u32) -> Result<String, JsError> {
    let gpu = BrowserGpu::open().await?;
    verdict(opcheck::curve_madd(&gpu, n as usize, u64::from(seed)).await?)
}

/// The report's text, or an error naming the first mismatch.
fn verdict(report: KernelReport) -> Result<String, JsError> {
    if report.mismatches != 0 {
        return Err(JsError::new(&format!(
            "MISMATCH at element {:?}: {report}",
            report.first_mismatch
        )));
    }
    Ok(report.to_string())
}
