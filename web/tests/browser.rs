//! Tests in a real browser: headless Chromium with WebGPU (SwiftShader where there is no
//! GPU), driven by chromedriver through wasm-bindgen-test-runner.
//!
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown -- --nocapture`
//! from `web/` (the flags are in `web/webdriver.json`; `.ci/browser.sh` installs what it
//! needs and runs it).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};
use wgpu_msm::Device;
use wgpu_msm_web::portable::{self, Outcome};
use wgpu_msm_web::{bytes, curve_madd, field_mul, BrowserGpu};

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

/// The MSM device, opened and its kernels built once for every test of the run (the
/// tests share one page and run one after another): building the MSM kernels takes
/// some 30 s on SwiftShader.
async fn device() -> Device {
    thread_local! {
        static DEV: std::cell::RefCell<Option<Device>> = const { std::cell::RefCell::new(None) };
    }
    if let Some(d) = DEV.with(|d| d.borrow().clone()) {
        return d;
    }
    let t = web_time::Instant::now();
    let dev = match Device::all_async().await {
        Ok(mut v) => v.remove(0),
        Err(e) => panic!("the browser test needs WebGPU: {e}"),
    };
    dev.prepare_async::<ark_bn254::g1::Config>(&Default::default())
        .await
        .unwrap_or_else(|e| panic!("building the MSM kernels: {e}"));
    console_log!(
        "{:?}: kernels built in {:.1} s",
        dev,
        t.elapsed().as_secs_f64()
    );
    DEV.with(|d| *d.borrow_mut() = Some(dev.clone()));
    dev
}

/// Fails with every failure of `o` (each names its case and seed).
fn assert_all_passed(o: &Outcome) {
    for p in &o.passed {
        console_log!("ok: {p}");
    }
    assert!(
        o.failures.is_empty(),
        "{} failures:\n{}",
        o.failures.len(),
        o.failures.join("\n")
    );
}

/// The seed of the random inputs: fixed, so a failure reproduces (every failure
/// message names its case's seed).
const SEED: u64 = 28;

#[wasm_bindgen_test]
async fn msm_async_matches_arkworks() {
    let dev = device().await;
    // Adversarial cases and random ones at 3, 13, 53, 213, 853, 3413 and 4096 points.
    let cases = portable::cases(SEED, 1 << 12);
    let t = web_time::Instant::now();
    let o = portable::check_host_msms(&dev, &cases).await;
    console_log!(
        "{} cases in {:.1} s",
        cases.len(),
        t.elapsed().as_secs_f64()
    );
    assert_all_passed(&o);
    assert_eq!(o.passed.len(), cases.len());
}

#[wasm_bindgen_test]
async fn resident_and_batch_match_arkworks() {
    let dev = device().await;
    let o = portable::check_resident_and_batch(&dev, 1000, SEED + 1).await;
    assert_all_passed(&o);
}

/// BN254 G2, the group of a Groth16 proof's B: its kernels built in the browser (the
/// register machine on a software adapter, reduction workgroups sized to the adapter's
/// workgroup memory), then MSMs of random points at n = 0, 1, 5 and 300 and an all-equal
/// scalar (one hot bucket) against arkworks.
#[wasm_bindgen_test]
async fn bn254_g2_msm_async_matches_arkworks() {
    use ark_ec::{CurveGroup, VariableBaseMSM};
    use wgpu_msm::testing::{random_bases_in, random_scalars_in};
    type G2 = ark_bn254::g2::Config;
    let dev = device().await;
    let t = web_time::Instant::now();
    dev.prepare_async::<G2>(&Default::default())
        .await
        .unwrap_or_else(|e| panic!("building the BN254 G2 kernels: {e}"));
    console_log!(
        "BN254 G2 kernels built in {:.1} s (workgroup memory {} bytes)",
        t.elapsed().as_secs_f64(),
        dev.info().max_workgroup_storage
    );
    for (n, seed) in [
        (0usize, SEED + 10),
        (1, SEED + 11),
        (5, SEED + 12),
        (300, SEED + 13),
    ] {
        let b = random_bases_in::<G2>(n, n.min(17), seed);
        let mut s = random_scalars_in::<G2>(n, seed + 100);
        for all_equal in [false, true] {
            if all_equal {
                let first = s.first().copied().unwrap_or_default();
                s.iter_mut().for_each(|x| *x = first);
            }
            let got = dev
                .msm_async(&b, &s, &Default::default())
                .await
                .unwrap_or_else(|e| panic!("n = {n}, seed {seed}: {e}"));
            let want = ark_ec::short_weierstrass::Projective::<G2>::msm(&b, &s).expect("lengths");
            assert_eq!(
                got.into_affine(),
                want.into_affine(),
                "n = {n}, seed {seed}, all scalars equal: {all_equal}"
            );
            console_log!("ok: BN254 G2 n = {n}, all scalars equal: {all_equal}");
        }
    }
}

/// The portable program (the same source runs natively in the root crate's
/// tests/portable.rs): `Device::all_async` and the `*_async` calls only.
#[wasm_bindgen_test]
async fn portable_program_matches_arkworks() {
    // Opens its own device; the kernels are built again for it (its own cache).
    let o = portable::run(SEED + 2, 300)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_all_passed(&o);
}

#[wasm_bindgen_test]
async fn js_api_bytes_round_trip_and_malformed_input() {
    let dev = device().await;
    let c = portable::random_case(100, SEED + 3);
    let (b, s) = (bytes::many_bytes(&c.bases), bytes::many_bytes(&c.scalars));
    let (pb, ps) = bytes::parse_inputs(&b, &s).expect("well-formed bytes");
    let got = dev
        .msm_async(&pb, &ps, &Default::default())
        .await
        .expect("msm");
    assert_eq!(
        bytes::point_bytes(&got),
        bytes::arkworks_msm(&b, &s).expect("arkworks")
    );
    // Malformed: a cut point, a cut scalar, different counts, a point off the curve.
    assert!(bytes::parse_inputs(&b[..b.len() - 1], &s).is_err());
    assert!(bytes::parse_inputs(&b, &s[..s.len() - 5]).is_err());
    assert!(bytes::parse_inputs(&b[..64 * 99], &s).is_err());
    let mut off = b.clone();
    off[64 * 7] ^= 1;
    let e = bytes::parse_inputs(&off, &s).expect_err("off-curve point");
    console_log!("off-curve point: {e}");
    assert!(e.to_string().contains("base 7"), "{e}");
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

/// Wall time of `msm_async` per size on this adapter (three calls each after one
/// warm-up), and of a call that only finds its kernels built: where a call's time goes
/// as n grows. Ignored by default (minutes on SwiftShader): `cargo test --target
/// wasm32-unknown-unknown --test browser -- --include-ignored --nocapture msm_call_times`
#[wasm_bindgen_test]
#[ignore]
async fn msm_call_times() {
    let dev = device().await;
    let t = web_time::Instant::now();
    dev.prepare_async::<ark_bn254::g1::Config>(&Default::default())
        .await
        .expect("prepare");
    console_log!(
        "prepare_async with every kernel built: {:.3} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    for n in [1usize, 16, 256, 1024, 4096] {
        let c = portable::random_case(n, SEED + n as u64);
        let mut ms = Vec::new();
        for run in 0..4 {
            let t = web_time::Instant::now();
            let r = dev
                .msm_async(&c.bases, &c.scalars, &Default::default())
                .await;
            let took = t.elapsed().as_secs_f64() * 1e3;
            assert_eq!(r.expect("msm"), portable::arkworks(&c), "n = {n}");
            if run > 0 {
                ms.push(took);
            }
        }
        console_log!("msm_async n = {n}: {ms:.1?} ms");
    }
}
