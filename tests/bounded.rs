//! A device's bounds, on a real adapter (lavapipe will do; any driver the environment
//! selects, see docs/drivers.md): a kernel build past the device's
//! `Tuning::kernel_build_limit` is an [`Error::KernelBuild`] naming the device and the
//! kernel, and a cluster leaves such a device out; a software adapter's default memory
//! budget is bounded, and MSMs larger than a device's budget stream within it and
//! still verify against arkworks.
//!
//! Each test opens fresh handles of the first adapter (`Device::open_again`), so a
//! tuning set here never reaches another test's device.

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::VariableBaseMSM;
use ark_std::rand::{rngs::StdRng, SeedableRng};
use ark_std::UniformRand;
use std::time::Duration;
use wgpu_msm::{Cluster, Device, Error, MsmConfig};

/// A fresh handle of the first adapter (own kernels, own tuning).
fn fresh_device() -> Device {
    let _ = env_logger::builder().is_test(true).try_init();
    let all = Device::all().unwrap_or_else(|e| {
        panic!("these tests need a wgpu adapter (lavapipe will do) and found none: {e}")
    });
    let first = all.first().expect("Device::all() returned no device");
    first
        .open_again()
        .expect("a second handle of the first adapter")
}

/// `n` random bases and scalars from `seed`.
fn inputs(n: usize, seed: u64) -> (Vec<G1Affine>, Vec<Fr>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let b = (0..n).map(|_| G1Affine::rand(&mut rng)).collect();
    let s = (0..n).map(|_| Fr::rand(&mut rng)).collect();
    (b, s)
}

/// A handle whose kernel builds may take no time at all: every build times out.
fn impatient_device() -> Device {
    let dev = fresh_device();
    let mut t = dev.tuning().unwrap();
    t.kernel_build_limit = Some(Duration::from_nanos(1));
    dev.set_tuning(t).unwrap();
    dev
}

#[test]
fn a_build_past_its_limit_is_an_error_naming_device_and_kernel() {
    let dev = impatient_device();
    let (b, s) = inputs(64, 1);
    match dev.msm(&b, &s, &MsmConfig::default()) {
        Err(Error::KernelBuild {
            device,
            kernel,
            message,
        }) => {
            assert_eq!(device, dev.name());
            assert!(!kernel.is_empty(), "names the kernel");
            assert!(message.contains("limit"), "{message}");
            let shown = Error::KernelBuild {
                device,
                kernel,
                message,
            }
            .to_string();
            assert!(shown.contains(dev.name()), "{shown}");
        }
        other => panic!("expected Error::KernelBuild, got {other:?}"),
    }
}

#[test]
fn a_cluster_leaves_out_a_device_whose_build_fails() {
    let good = fresh_device();
    let bad = impatient_device();
    let (b, s) = inputs(3000, 2);
    let want = G1Projective::msm(&b, &s).unwrap();
    let c = Cluster::new(vec![bad.clone(), good]).unwrap();
    let got = c.msm(&b, &s, &MsmConfig::default());
    assert_eq!(got.as_ref().ok(), Some(&want), "seed 2: {got:?}");
    let r = c.last_report().unwrap();
    let failed = r
        .workers
        .iter()
        .find(|w| w.failures > 0)
        .unwrap_or_else(|| panic!("the impatient device failed: {r}"));
    assert_eq!(failed.points, 0, "{r}");
    let e = failed.last_error.as_deref().unwrap_or("");
    assert!(e.contains(bad.name()) && e.contains("limit"), "{e}");
}

#[test]
fn a_software_adapter_has_a_bounded_default_budget() {
    let dev = fresh_device();
    let t = dev.tuning().unwrap();
    if dev.info().software {
        let b = t
            .memory_budget
            .expect("a software adapter's default budget");
        assert!(
            b <= wgpu_msm::msm::plan::tuning::SOFTWARE_BUDGET_MAX,
            "{b} bytes"
        );
        let cap = dev.pass_capacity(&MsmConfig::default()).unwrap();
        assert!(cap.bytes <= b, "a pass of {} bytes, budget {b}", cap.bytes);
    } else {
        eprintln!(
            "{} is not a software adapter: its default budget is {:?}",
            dev.name(),
            t.memory_budget
        );
    }
}

#[test]
fn msms_larger_than_the_default_budget_stream_within_it() {
    let dev = fresh_device();
    let mut t = dev.tuning().unwrap();
    let budget = 4u64 << 20;
    t.memory_budget = Some(budget);
    dev.set_tuning(t).unwrap();
    let n = 1 << 16;
    let cap = dev.pass_capacity(&MsmConfig::default()).unwrap();
    assert!(cap.points < n, "2^16 points take several passes: {cap:?}");
    assert!(cap.bytes <= budget, "{cap:?}");
    // The budget falls between two pass shapes: passes take the larger shape with
    // buffers for the points the budget holds, not a power of two of them.
    assert!(!cap.points.is_power_of_two(), "{cap:?}");
    let (b, s) = inputs(n, 3);
    let want = G1Projective::msm(&b, &s).unwrap();
    let cfg = MsmConfig::default();
    assert_eq!(dev.msm(&b, &s, &cfg).unwrap(), want, "one-shot, seed 3");
    // Resident bases the caller placed count on top of the default budget.
    let srs = dev.upload_bases(&b).unwrap();
    assert!(srs.device_bytes() > budget);
    assert_eq!(
        dev.msm_with(&srs, &s, &cfg).unwrap(),
        want,
        "resident, seed 3"
    );
    let half = &s[..n / 2];
    let want_half = G1Projective::msm(&b[..n / 2], half).unwrap();
    let got = dev.msm_batch(&srs, &[&s, half], &cfg).unwrap();
    assert_eq!(got, vec![want, want_half], "batch, seed 3");
}
