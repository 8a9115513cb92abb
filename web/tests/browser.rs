//! Tests in a real browser: headless Chromium with WebGPU (SwiftShader where there is no
//! GPU), driven by chromedriver through wasm-bindgen-test-runner.
//!
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -- --nocapture`
//! from `web/` (the flags are in `web/webdriver.json`; `.ci/browser.sh` installs what it
//! needs and runs it).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};
use wgpu_msm_web::{curve_madd, field_mul, BrowserGpu};

wasm_bindgen_test_configure!(run_in_browser);

/// Opens the browser's adapter, or fails the suite: a browser run without WebGPU must
/// not pass.
async fn gpu() -> BrowserGpu {
    match BrowserGpu::open().await {
        Ok(gpu) => gpu,
        Err(e) => panic!("the browser test needs WebGPU: {e}"),
    }
}

#[wasm_bindgen_test]
async fn webgpu_adapter_appears() {
    let gpu = gpu().await;
    let s = gpu.summary().await;
    console_log!("{s}");
    assert_eq!(s.info.backend, wgpu::Backend::BrowserWebGpu);
}

#[wasm_bindgen_test]
async fn fq_mul_matches_arkworks() {
    let gpu = gpu().await;
    // Awkward sizes: one pair, a part-filled workgroup, many groups.
    for (n, seed) in [(1, 1), (67, 2), (4096, 3)] {
        let r = field_mul(&gpu, n, seed)
            .await
            .unwrap_or_else(|e| panic!("n = {n}, seed {seed}: {e}"));
        console_log!("{r}");
        assert_eq!(
            r.mismatches, 0,
            "n = {n}, seed {seed}: first mismatch at {:?}",
            r.first_mismatch
        );
    }
}

#[wasm_bindgen_test]
async fn curve_madd_matches_arkworks() {
    let gpu = gpu().await;
    // The six special cases, then random pairs into a part-filled fourth workgroup: one
    // call, since each builds the curve pipeline anew (seconds on SwiftShader).
    let (n, seed) = (200, 5);
    let r = curve_madd(&gpu, n, seed)
        .await
        .unwrap_or_else(|e| panic!("n = {n}, seed {seed}: {e}"));
    console_log!("{r}");
    assert_eq!(
        r.mismatches, 0,
        "n = {n}, seed {seed}: first mismatch at {:?} (0-5 are P+P, P-P, -P+P, P+inf, inf+P, inf+inf)",
        r.first_mismatch
    );
}

/// Build times of every curve test kernel and MSM stage on this browser's adapter.
/// Ignored by default: on SwiftShader some of them take minutes (or never finish), which
/// is what this measures. `cargo test --target wasm32-unknown-unknown --test browser --
/// --include-ignored --nocapture kernel_build_times`
#[wasm_bindgen_test]
#[ignore]
async fn kernel_build_times() {
    use wgpu_msm::shader::ShaderKind;
    let gpu = gpu().await;
    for kind in [
        ShaderKind::TestField,
        ShaderKind::TestCurve,
        ShaderKind::CheckBases,
        ShaderKind::FoldArgs,
        ShaderKind::Msm,
    ] {
        let (module, ms) = wgpu_msm_web::compile::module(&gpu, kind)
            .await
            .unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        console_log!("{kind:?}: module {ms:.1} ms");
        for entry in kind.entry_points() {
            let (_, ms) = wgpu_msm_web::compile::pipeline(&gpu, &module, &entry)
                .await
                .unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            console_log!("{kind:?}/{entry}: pipeline {ms:.1} ms");
        }
    }
}
