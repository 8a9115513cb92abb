//! The GPU test harness shared by the GPU test binaries: the devices (opened once per
//! binary), the run's seed, and a context per (test, device, multiply path).
//!
//! * No adapter is a failure, never a pass: every test panics with the reason.
//! * `Portable32` is forced even where the device has SHADER_INT64. On a device without
//!   SHADER_INT64 the `wide64` tests instead check that forcing `Wide64` is refused.
//! * Random inputs come from a seed printed on failure: `WGPU_MSM_SEED` (decimal or
//!   `0x` hex) fixes it, otherwise it is taken from the clock.

use ark_bn254::{Fr, G1Affine};
use ark_ec::AffineRepr;
use ark_ff::Field as _;
use ark_std::rand::{rngs::StdRng, Rng, SeedableRng};
use std::sync::OnceLock;
use std::time::Instant;
use wgpu_msm::opcheck::{self, Field};
use wgpu_msm::shader::Fq32;
use wgpu_msm::{Arithmetic, Device, Error, MsmConfig, MulPath};

static DEVICES: OnceLock<Result<Vec<Device>, String>> = OnceLock::new();

/// The devices under test, opened once. Panics (fails the test) when there are none.
pub fn devices() -> &'static [Device] {
    let r = DEVICES.get_or_init(|| {
        let _ = env_logger::builder().is_test(true).try_init();
        match Device::all() {
            Ok(d) if d.is_empty() => Err("Device::all() returned no device".to_string()),
            Ok(d) => {
                for dev in &d {
                    let i = dev.info();
                    eprintln!(
                        "gpu tests on {dev:?}: {} ({}), shader_int64 = {}",
                        i.device_type, i.driver, i.shader_int64
                    );
                }
                Ok(d)
            }
            Err(e) => Err(e.to_string()),
        }
    });
    match r {
        Ok(d) => d,
        Err(e) => panic!(
            "GPU tests need at least one wgpu adapter and found none ({e}). On a machine \
             without a GPU install lavapipe (`apt-get install mesa-vulkan-drivers libvulkan1`)."
        ),
    }
}

/// The base seed of this run (printed once; `WGPU_MSM_SEED` overrides).
pub fn base_seed() -> u64 {
    static SEED: OnceLock<u64> = OnceLock::new();
    *SEED.get_or_init(|| {
        let s = match std::env::var("WGPU_MSM_SEED") {
            Ok(v) => {
                let v = v.trim();
                let parsed = match v.strip_prefix("0x") {
                    Some(h) => u64::from_str_radix(h, 16),
                    None => v.parse(),
                };
                parsed.unwrap_or_else(|_| panic!("WGPU_MSM_SEED={v:?} is not a u64"))
            }
            Err(_) => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0x5eed),
        };
        eprintln!("gpu tests: WGPU_MSM_SEED={s}");
        s
    })
}

/// What one test runs against: a device, a forced multiply path and a seeded RNG.
pub struct Ctx<'a> {
    pub dev: &'a Device,
    pub path: MulPath,
    pub test: &'static str,
    pub seed: u64,
    pub rng: StdRng,
}

impl Ctx<'_> {
    /// Identifies the run in failure messages, with the seed to reproduce it.
    pub fn tag(&self) -> String {
        format!(
            "[{} on {:?}, {}; test seed {:#x}; reproduce with WGPU_MSM_SEED={}]",
            self.test,
            self.dev,
            self.path.name(),
            self.seed,
            base_seed()
        )
    }

    /// A fresh seed for a helper that takes one.
    pub fn next_seed(&mut self) -> u64 {
        self.rng.gen()
    }

    /// A config forcing this context's path.
    pub fn cfg(&self) -> MsmConfig {
        MsmConfig::with_arithmetic(arith(self.path))
    }
}

pub fn arith(path: MulPath) -> Arithmetic {
    match path {
        MulPath::Wide64 => Arithmetic::Wide64,
        MulPath::Portable32 => Arithmetic::Portable32,
    }
}

/// FNV-1a, to give every test its own stream from the base seed.
fn name_hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Runs `f` on every device for `path`. Where `Wide64` is asked for on a device without
/// SHADER_INT64, checks instead that forcing it is an `InvalidConfig` error.
pub fn for_each_device(test: &'static str, path: MulPath, f: impl Fn(&mut Ctx)) {
    for dev in devices() {
        let seed = base_seed() ^ name_hash(test) ^ dev.index() as u64;
        let mut ctx = Ctx {
            dev,
            path,
            test,
            seed,
            rng: StdRng::seed_from_u64(seed),
        };
        if path == MulPath::Wide64 && !dev.info().shader_int64 {
            eprintln!(
                "{test}: {dev:?} lacks SHADER_INT64; checking that Wide64 is refused instead"
            );
            check_wide64_refused(dev);
            continue;
        }
        assert_eq!(dev.resolve_arithmetic(arith(path)).unwrap(), path);
        let t = Instant::now();
        f(&mut ctx);
        eprintln!("{test} on {dev:?}: {:.1?}", t.elapsed());
    }
}

/// `Arithmetic::Wide64` on a device without SHADER_INT64 is refused, by the MSM and by
/// the op runner.
fn check_wide64_refused(dev: &Device) {
    let g = G1Affine::generator();
    assert!(matches!(
        dev.resolve_arithmetic(Arithmetic::Wide64),
        Err(Error::InvalidConfig(_))
    ));
    let r = dev.msm(
        &[g],
        &[Fr::ONE],
        &MsmConfig::with_arithmetic(Arithmetic::Wide64),
    );
    assert!(
        matches!(r, Err(Error::InvalidConfig(_))),
        "{dev:?}: forced Wide64 gave {r:?}"
    );
    let r = opcheck::field_op(dev, MulPath::Wide64, Field::Fq, "add", &[[0; 8]], &[[0; 8]]);
    assert!(
        matches!(r, Err(Error::InvalidConfig(_))),
        "{dev:?}: opcheck Wide64 gave {r:?}"
    );
    assert_eq!(
        dev.resolve_arithmetic(Arithmetic::Auto).unwrap(),
        MulPath::Portable32
    );
}

/// Runs `f` with Portable32's Fq in `fq32` (32-bit words or BN254's small limbs)
/// instead of the device's tuned representation, then restores the tuning: each is
/// tested on every device, whichever the device would pick.
#[allow(dead_code)] // Not every test binary that shares this module calls it.
pub fn with_fq32(ctx: &mut Ctx, fq32: Fq32, f: fn(&mut Ctx)) {
    let dev = ctx.dev;
    let before = dev.tuning().expect("a device's tuning");
    let mut t = before.clone();
    t.fq32 = fq32;
    dev.set_tuning(t).expect("set the tuning");
    f(ctx);
    dev.set_tuning(before).expect("restore the tuning");
}

/// `cfg` with GLV windows (BN254 G1's halves) of exactly `c` bits. A plan computing
/// every window spreads the halves' bits over ceil(bits / c) windows, so some widths
/// run narrower (14 bits as ten windows of 13, 17 as eight of 16); there the config
/// asks for a range of all the windows, which keeps every window `c` bits.
#[allow(dead_code)] // Not every test binary that shares this module calls it.
pub fn glv_windows_of(c: u32, cfg: MsmConfig) -> MsmConfig {
    use wgpu_msm::msm::plan::Layout;
    let bits = Layout::Glv.digit_bits(wgpu_msm::GroupId::Bn254G1);
    let windows = Layout::Glv.window_count(c);
    MsmConfig {
        window_bits: Some(c),
        windows: (bits.div_ceil(windows) < c).then_some(0..windows),
        glv: Some(true),
        ..cfg
    }
}
