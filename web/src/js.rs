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

/// The MSM on the browser's GPU, for JavaScript: `const m = await WgpuMsm.init();`
/// then `await m.prepare()` (optional: builds the kernels, seconds on a CPU adapter)
/// and `await m.msm(bases, scalars)` on `Uint8Array`s in arkworks' canonical
/// uncompressed serialization (64-byte BN254 G1 affine points, 32-byte Fr scalars),
/// giving the result's 64 bytes. Every failure is a JS `Error`.
#[wasm_bindgen]
pub struct WgpuMsm {
    dev: wgpu_msm::Device,
    adapter: String,
}

#[wasm_bindgen]
impl WgpuMsm {
    /// Opens the browser's WebGPU adapter.
    ///
    /// # Errors
    /// A JS `Error` when the browser has no WebGPU or refuses the device.
    pub async fn init() -> Result<WgpuMsm, JsError> {
        let dev = wgpu_msm::Device::all_async()
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| JsError::new("no WebGPU device"))?;
        let i = dev.info();
        let adapter =
            format!(
            "{} ({}, {}) [{}]; storage binding {} MiB, buffer {} MiB, {} invocations/workgroup, \
             SHADER_INT64 {}, subgroups {}",
            if i.name.is_empty() { "(no name)" } else { &i.name },
            i.device_type,
            i.backend,
            crate::gpu::browser_adapter_info().await,
            i.max_storage_binding >> 20,
            i.max_buffer_size >> 20,
            i.max_invocations_per_workgroup,
            if i.shader_int64 { "yes" } else { "no" },
            if i.subgroup { "yes" } else { "no" },
        );
        Ok(WgpuMsm { dev, adapter })
    }

    /// The adapter: its name, type, backend, the browser's `GPUAdapterInfo` and the
    /// limits the MSM sizes its passes by.
    #[wasm_bindgen(getter)]
    pub fn adapter(&self) -> String {
        self.adapter.clone()
    }

    /// Builds every MSM kernel on the device (the first `msm` does it otherwise).
    ///
    /// # Errors
    /// A JS `Error` when the browser rejects a kernel.
    pub async fn prepare(&self) -> Result<(), JsError> {
        let dev = self.dev.clone();
        dev.prepare_async::<ark_bn254::g1::Config>(&Default::default())
            .await?;
        Ok(())
    }

    /// `sum_i scalars[i] * bases[i]` on the GPU, as the 64 uncompressed bytes of the
    /// affine result.
    ///
    /// # Errors
    /// A JS `Error` for malformed input (a byte length that is not a whole number of
    /// points or scalars, a point off the curve or outside the subgroup, a scalar not
    /// reduced, different counts) or a GPU failure.
    pub async fn msm(&self, bases: Vec<u8>, scalars: Vec<u8>) -> Result<Vec<u8>, JsError> {
        let dev = self.dev.clone();
        let (b, s) = crate::bytes::parse_inputs(&bases, &scalars)?;
        let r = dev.msm_async(&b, &s, &Default::default()).await?;
        Ok(crate::bytes::point_bytes(&r))
    }
}

/// Random MSM inputs as bytes (for the page): `n` points and `n` scalars from `seed`.
#[wasm_bindgen]
pub struct RandomInputs {
    bases: Vec<u8>,
    scalars: Vec<u8>,
}

#[wasm_bindgen]
impl RandomInputs {
    /// `n` random BN254 G1 points and Fr scalars from `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(n: u32, seed: u32) -> RandomInputs {
        let c = crate::portable::random_case(n as usize, u64::from(seed));
        RandomInputs {
            bases: crate::bytes::many_bytes(&c.bases),
            scalars: crate::bytes::many_bytes(&c.scalars),
        }
    }

    /// The points, 64 bytes each.
    #[wasm_bindgen(getter)]
    pub fn bases(&self) -> Vec<u8> {
        self.bases.clone()
    }

    /// The scalars, 32 bytes each.
    #[wasm_bindgen(getter)]
    pub fn scalars(&self) -> Vec<u8> {
        self.scalars.clone()
    }
}

/// arkworks' MSM (compiled to WebAssembly, one thread) of byte inputs, as bytes.
///
/// # Errors
/// A JS `Error` for malformed input, as [`WgpuMsm::msm`].
#[wasm_bindgen(js_name = arkworksMsm)]
pub fn arkworks_msm(bases: &[u8], scalars: &[u8]) -> Result<Vec<u8>, JsError> {
    Ok(crate::bytes::arkworks_msm(bases, scalars)?)
}
