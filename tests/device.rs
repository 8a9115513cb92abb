//! The device layer on whatever adapter exists: enumeration, selection, the ICICLE-style
//! active device, logical devices opened twice. No shaders are compiled here.
//! With no adapter at all these tests fail with the library's install hint.

use wgpu_msm::device::enumerate::Selection;
use wgpu_msm::{active_device, device_count, run_on_device, set_device, Device, Error};

fn devices() -> Vec<Device> {
    Device::all().unwrap_or_else(|e| panic!("no GPU adapter: GPU tests cannot run ({e})"))
}

#[test]
fn every_physical_adapter_is_listed_once() {
    let devs = devices();
    assert!(!devs.is_empty());
    for (i, d) in devs.iter().enumerate() {
        assert_eq!(d.index(), i, "indices are renumbered from 0");
        let twins = devs
            .iter()
            .filter(|o| o.name() == d.name() && o.info().backend != d.info().backend)
            .count();
        assert_eq!(twins, 0, "{} is listed through two backends", d.name());
        assert_ne!(
            d.info().backend,
            "Gl",
            "{} should be reached through a native backend",
            d.name()
        );
    }
}

#[test]
fn selection_by_index_and_name_and_none() {
    let devs = devices();
    let first =
        Device::all_with(&Selection::parse("0"), false).expect("index 0 selects one device");
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].name(), devs[0].name());
    let word = devs[0]
        .name()
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_lowercase();
    let by_name =
        Device::all_with(&Selection::parse(&word), false).expect("name substring selects");
    assert!(by_name
        .iter()
        .all(|d| d.name().to_lowercase().contains(&word)));
    match Device::all_with(&Selection::parse("no-such-gpu-anywhere"), false) {
        Err(Error::NoMatchingDevice {
            selection,
            adapters,
        }) => {
            assert_eq!(selection, "no-such-gpu-anywhere");
            assert!(
                adapters.iter().any(|a| a.starts_with("#0 ")),
                "the adapters are listed with their indices: {adapters:?}"
            );
        }
        other => panic!("an empty selection must be Error::NoMatchingDevice, got {other:?}"),
    }
}

#[test]
fn one_adapter_opens_twice_as_distinct_devices() {
    let d = &devices()[0];
    let again = d
        .open_again()
        .expect("a second logical device on the same adapter");
    assert_ne!(d.uid(), again.uid());
    assert_eq!(d.name(), again.name());
    // A handle of one logical device is refused by the other.
    let none: &[ark_bn254::G1Affine] = &[];
    let bases = d.upload_bases(none).expect("empty upload");
    assert!(matches!(
        again.msm_with(&bases, &[], &wgpu_msm::MsmConfig::default()),
        Err(Error::WrongDevice { owner, used, .. }) if owner == d.uid() && used == again.uid()
    ));
}

#[test]
fn active_device_per_thread_and_run_on_device() {
    let n = device_count().expect("device count");
    assert!(n >= 1);
    assert!(
        matches!(set_device(n), Err(Error::DeviceIndex { index, count }) if index == n && count == n)
    );
    assert!(matches!(
        run_on_device(n, || ()),
        Err(Error::DeviceIndex { .. })
    ));
    for i in 0..n {
        let (idx, uid) = run_on_device(i, || {
            let d = active_device().expect("active device");
            (d.index(), d.uid())
        })
        .expect("run_on_device");
        assert_eq!(idx, i, "run_on_device({i}) ran with device {idx} active");
        set_device(i).expect("valid index");
        assert_eq!(
            active_device().expect("active").uid(),
            uid,
            "same device as seen from run_on_device"
        );
    }
    // Another thread starts on device 0 whatever this one chose.
    set_device(n - 1).expect("valid index");
    let other = std::thread::spawn(|| active_device().map(|d| d.index()))
        .join()
        .expect("thread");
    assert_eq!(other.expect("active device"), 0);
}

#[test]
fn tuning_is_per_device_and_follows_the_device() {
    let first = &devices()[0];
    // Two logical devices of one adapter: what one sets, the other does not see.
    let a = first.open_again().expect("a second device");
    let b = first.open_again().expect("a third device");
    let before = b.tuning().expect("tuning");
    let mut t = a.tuning().expect("tuning");
    t.upload_threads = 3;
    t.pool_keep = 2;
    t.pass_growth_pct = 300;
    a.set_tuning(t.clone()).expect("set_tuning");
    assert_eq!(a.tuning().expect("tuning"), t);
    assert_eq!(
        b.tuning().expect("tuning"),
        before,
        "b keeps its own tuning"
    );
    // A tuning the device cannot run is refused.
    if !a.info().indirect_dispatch {
        t.fold_indirect = true;
        assert!(a.set_tuning(t).is_err());
    }
    for d in devices() {
        let t = d.tuning().expect("tuning");
        // Software adapters retire their own submissions and wait without polling.
        assert_eq!(t.retire_on_poller, !d.info().software, "{}", d.name());
        assert_eq!(t.poll_readback, !d.info().software, "{}", d.name());
        assert_eq!(t.fold_indirect, d.info().indirect_dispatch, "{}", d.name());
    }
}

#[test]
fn uploads_are_read_in_place_where_the_device_allows_it() {
    // By default a device that may bind mappable buffers as storage reads one-shot
    // inputs from the upload buffers in place, so the other GPU test binaries run that
    // path; `copied_uploads.rs` forces the copy through the device's tuning.
    for d in devices() {
        let able = d
            .wgpu_device()
            .features()
            .contains(wgpu::Features::MAPPABLE_PRIMARY_BUFFERS);
        let vulkan = d.info().backend == "Vulkan";
        assert_eq!(
            d.uploads_in_place(),
            able,
            "{}: uploads_in_place must follow MAPPABLE_PRIMARY_BUFFERS",
            d.name()
        );
        if vulkan {
            assert!(
                able,
                "{}: Vulkan adapters offer MAPPABLE_PRIMARY_BUFFERS",
                d.name()
            );
        }
    }
}
