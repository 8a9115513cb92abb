//! `wgpu-msm run` on each driver the crate is tested on, one test per driver: lavapipe
//! (Mesa's Vulkan on the CPU), llvmpipe through wgpu's GL backend (`WGPU_BACKEND=gl`),
//! and SwiftShader (Vulkan on the CPU, shipped with Chromium). Each spawns the built
//! binary with that driver's environment, under a time limit and a limit on its
//! resident memory, and passes when the binary prints `all verified` (every device and
//! the cluster checked against arkworks).
//!
//! They are ignored by `cargo test --release`: they take minutes on a CPU and need the
//! drivers installed. `.ci/run` runs them: `cargo test --release --test drivers --
//! --ignored`. A driver that is not installed fails its test with the package to
//! install; no test passes for want of an adapter.
//!
//! Environment:
//! * `WGPU_MSM_SKIP_DRIVERS`: comma-separated drivers (`lavapipe`, `gl`, `swiftshader`)
//!   to skip; each skip is printed. Nothing else skips a driver.
//! * `WGPU_MSM_DRIVER_LOG_SIZES`: log2 sizes to run, comma-separated (default `10`).
//! * `WGPU_MSM_DRIVER_TIMEOUT_S`: seconds each run may take (default 600).
//! * `WGPU_MSM_DRIVER_MAX_RSS_MIB`: resident memory each run may reach (default 2048).
//! * `WGPU_MSM_SWIFTSHADER_ICD`: SwiftShader's ICD file (default Debian's
//!   `/usr/lib/chromium/vk_swiftshader_icd.json`).

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A driver: its name in `WGPU_MSM_SKIP_DRIVERS`, the environment that selects it, and
/// what to install when it is missing.
struct Driver {
    name: &'static str,
    env: Vec<(&'static str, String)>,
    install: &'static str,
}

/// `var` parsed, or `default`.
fn env_or<T: std::str::FromStr>(var: &str, default: T) -> T {
    match std::env::var(var) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{var}={v:?} does not parse")),
        Err(_) => default,
    }
}

/// Whether `WGPU_MSM_SKIP_DRIVERS` names `driver`.
fn skipped(driver: &str) -> bool {
    std::env::var("WGPU_MSM_SKIP_DRIVERS")
        .unwrap_or_default()
        .split(',')
        .any(|t| t.trim().eq_ignore_ascii_case(driver))
}

/// The first file in `dir` whose name starts with `prefix` and ends `.json`.
fn icd_in(dir: &str, prefix: &str) -> Option<String> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path().to_string_lossy().into_owned())
        .filter(|p| {
            let name = p.rsplit('/').next().unwrap_or("");
            name.starts_with(prefix) && name.ends_with(".json")
        })
        .collect();
    found.sort();
    found.into_iter().next()
}

/// Peak and current resident memory of process `pid`, in KiB (`VmHWM`, `VmRSS`).
fn rss_kib(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |key: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    Some((field("VmHWM:")?, field("VmRSS:")?))
}

/// Spawns `wgpu-msm run --log-size lg` under `driver`, kills it past the time or
/// memory limit, and fails the test unless it prints `all verified`.
fn run_verifies(driver: &Driver, lg: u32) {
    let timeout = Duration::from_secs(env_or("WGPU_MSM_DRIVER_TIMEOUT_S", 600));
    let max_kib = env_or::<u64>("WGPU_MSM_DRIVER_MAX_RSS_MIB", 2048) << 10;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wgpu-msm"));
    cmd.args(["run", "--log-size", &lg.to_string()])
        .env_remove("WGPU_BACKEND")
        .env_remove("VK_ICD_FILENAMES")
        .env_remove("VK_DRIVER_FILES")
        .env_remove("WGPU_MSM_DEVICES")
        .env(
            "XDG_RUNTIME_DIR",
            std::env::var_os("XDG_RUNTIME_DIR").unwrap_or("/tmp".into()),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in &driver.env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let mut child = cmd.spawn().expect("wgpu-msm starts");
    // Drained on their own threads so a full pipe never stalls the child.
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let err = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let (mut peak, mut killed) = (0u64, None);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait on wgpu-msm") {
            break s;
        }
        if let Some((hwm, rss)) = rss_kib(child.id()) {
            peak = peak.max(hwm);
            if rss > max_kib && killed.is_none() {
                killed = Some(format!("resident memory {} MiB over the limit", rss >> 10));
            }
        }
        if start.elapsed() > timeout && killed.is_none() {
            killed = Some(format!("still running after {} s", timeout.as_secs()));
        }
        if killed.is_some() {
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let wall = start.elapsed().as_secs_f64();
    let (out, err) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    eprintln!(
        "{} 2^{lg}: {status}, {wall:.1} s, peak RSS {} MiB (sampled)",
        driver.name,
        peak >> 10
    );
    let tail = |s: &str| {
        s.lines()
            .rev()
            .take(40)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        killed.is_none() && status.success() && out.contains("all verified"),
        "{} 2^{lg} did not verify ({}; {status}, {wall:.1} s, peak RSS {} MiB). If the driver \
         is missing: {}; to skip it: WGPU_MSM_SKIP_DRIVERS={}.\nstdout:\n{}\nstderr:\n{}",
        driver.name,
        killed.as_deref().unwrap_or("exited"),
        peak >> 10,
        driver.install,
        driver.name,
        tail(&out),
        tail(&err)
    );
}

/// Runs every size of `WGPU_MSM_DRIVER_LOG_SIZES` on `driver`, unless skipped.
fn check_driver(driver: Driver) {
    if skipped(driver.name) {
        eprintln!("SKIPPED: driver {} (WGPU_MSM_SKIP_DRIVERS)", driver.name);
        return;
    }
    let sizes = std::env::var("WGPU_MSM_DRIVER_LOG_SIZES").unwrap_or_else(|_| "10".into());
    for lg in sizes.split(',').map(|t| {
        t.trim()
            .parse::<u32>()
            .unwrap_or_else(|_| panic!("WGPU_MSM_DRIVER_LOG_SIZES={sizes:?}"))
    }) {
        run_verifies(&driver, lg);
    }
}

/// The file `path`, or a test failure naming what to install.
fn require(path: Option<String>, what: &str, install: &str) -> String {
    match path {
        Some(p) if std::path::Path::new(&p).exists() => p,
        _ => panic!("{what} not found: {install}"),
    }
}

#[test]
#[ignore = "minutes on a CPU; .ci/run runs it (cargo test --release --test drivers -- --ignored)"]
fn lavapipe_vulkan() {
    let install = "apt-get install mesa-vulkan-drivers libvulkan1";
    let icd = require(
        icd_in("/usr/share/vulkan/icd.d", "lvp_icd"),
        "lavapipe's ICD file",
        install,
    );
    check_driver(Driver {
        name: "lavapipe",
        env: vec![
            ("VK_ICD_FILENAMES", icd),
            ("WGPU_BACKEND", "vulkan".into()),
            ("WGPU_MSM_DEVICES", "cpu,llvmpipe".into()),
        ],
        install,
    });
}

#[test]
#[ignore = "minutes on a CPU; .ci/run runs it (cargo test --release --test drivers -- --ignored)"]
fn llvmpipe_gl() {
    check_driver(Driver {
        name: "gl",
        env: vec![
            ("WGPU_BACKEND", "gl".into()),
            ("WGPU_MSM_DEVICES", "cpu,llvmpipe".into()),
        ],
        install: "apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri",
    });
}

#[test]
#[ignore = "minutes on a CPU; .ci/run runs it (cargo test --release --test drivers -- --ignored)"]
fn swiftshader_vulkan() {
    let install =
        "apt-get install chromium (its vk_swiftshader_icd.json), or set WGPU_MSM_SWIFTSHADER_ICD";
    if skipped("swiftshader") {
        eprintln!("SKIPPED: driver swiftshader (WGPU_MSM_SKIP_DRIVERS)");
        return;
    }
    let icd = require(
        Some(
            std::env::var("WGPU_MSM_SWIFTSHADER_ICD")
                .unwrap_or_else(|_| "/usr/lib/chromium/vk_swiftshader_icd.json".into()),
        ),
        "SwiftShader's ICD file",
        install,
    );
    check_driver(Driver {
        name: "swiftshader",
        env: vec![
            ("VK_ICD_FILENAMES", icd),
            ("WGPU_BACKEND", "vulkan".into()),
            ("WGPU_MSM_DEVICES", "cpu,swiftshader".into()),
        ],
        install,
    });
}
