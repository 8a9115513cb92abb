//! `bench`: MSM timings per device over a size range, each verified, beside arkworks on
//! the CPU in the same run. Medians of repeats after a warm-up; input generation is
//! outside the timed region.

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use indicatif::{ProgressBar, ProgressStyle};
use std::time::Instant;
use wgpu_msm::device::enumerate::Selection;
use wgpu_msm::testing::{parity_bases, parity_expected, parity_inputs, PARITY_BASES};
use wgpu_msm::{Device, Error, MsmConfig, Result, Strategy};

/// Arguments of `bench`. Each device and each cluster is timed in three modes: `oneshot`
/// (host bases and scalars), `resident` (bases uploaded once) and `device` (bases and
/// scalars uploaded once, `msm_resident`).
#[derive(clap::Args)]
pub(crate) struct BenchArgs {
    /// log2 sizes: an inclusive range `10..24` or a list `10,12,16`.
    #[arg(long, default_value = "10,12,14,16")]
    sizes: String,
    /// Device selection, as WGPU_MSM_DEVICES (indices, name substrings, `cpu`).
    #[arg(long)]
    devices: Option<String>,
    /// Multiply path.
    #[arg(long, value_enum, default_value = "auto")]
    arith: super::Arith,
    /// Window bits (default: chosen per size).
    #[arg(long)]
    window: Option<u32>,
    /// Most points per pass (`MsmConfig::chunk_size`), as log2; one-shot inputs above
    /// it stream in chunks of this size (default: chosen per size).
    #[arg(long)]
    chunk: Option<u32>,
    /// Timed repeats per (device, size, mode); the median is reported.
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Largest log2 size at which arkworks is run for timing and verification; larger
    /// sizes are verified against the CUDA parity vectors where they exist.
    #[arg(long, default_value_t = 22)]
    ark_max: u32,
    /// Also print a per-stage profile (timestamp queries) of one run per (device, size).
    #[arg(long)]
    profile: bool,
    /// With `--profile`: profile this many runs of each cluster MSM and report the
    /// fastest and the slowest of them (to see what a slow repeat does differently).
    #[arg(long, default_value_t = 1)]
    profile_runs: usize,
    /// With `--profile`: also print the timeline (host uploads, submissions, readback;
    /// device stages per pass) of the profiled runs at these log2 sizes (`22` or
    /// `20,24`).
    #[arg(long)]
    timeline: Option<String>,
    /// Also time a batch of this many MSMs over the same resident bases
    /// (`msm_batch`) against as many single `msm_with` calls; both reported per MSM.
    #[arg(long)]
    batch: Option<usize>,
    /// Memory budget of the oneshot rows (`MsmConfig::memory_budget`): bytes, or with a
    /// unit `KiB`, `MiB`, `GiB` (`1GiB`). Inputs beyond it are streamed in chunks.
    #[arg(long, value_parser = parse_bytes)]
    budget: Option<u64>,
    /// Cluster strategies to time, comma-separated (`auto`, `even`, `weighted`,
    /// `dynamic`, `windows`); each gets its own cluster rows.
    #[arg(long, default_value = "auto", value_parser = parse_strategies)]
    strategy: std::vec::Vec<Strategy>,
    /// Also time the devices with the host CPU (arkworks) as one more worker: a cluster
    /// of unlike workers, so `Auto` runs the adaptive `Dynamic`. Rows `first` (the
    /// cluster's first MSM, calibration included) and `oneshot` (later ones).
    #[arg(long)]
    cpu_worker: bool,
    /// Also time one-shot MSMs of every size in turn on each device (a prover's
    /// pattern: every call a different shape from the one before), `repeat` rounds;
    /// rows `rotate`.
    #[arg(long)]
    rotate: bool,
    /// Also print every timed repeat of each row (ms, in the order they ran), to see the
    /// spread behind a median.
    #[arg(long)]
    samples: bool,
    /// Untimed calls before each row's repeats: at least one, and more until this many
    /// milliseconds have passed. An idle GPU lowers its clocks and raises them only
    /// after some load: an H200 idle for a few seconds ran its first 2^21 one-shot MSMs
    /// at 345-600 MHz for 0.2-0.5 s, 2-3x slower (BENCHMARKS.md v27).
    #[arg(long, default_value_t = 500)]
    warmup_ms: u64,
    /// Write records as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Write records as CSV.
    #[arg(long)]
    csv: Option<std::path::PathBuf>,
    /// Write SVG plots of time against size per mode into this folder (`wgpu-msm plot`).
    #[arg(long)]
    plot: Option<std::path::PathBuf>,
}

/// `c` with a per-stage profile asked for.
fn profiled(c: &MsmConfig) -> MsmConfig {
    MsmConfig {
        profile: true,
        ..c.clone()
    }
}

/// One timed way of running the MSM; returns whether its result verified.
type MsmFn<'a> = Box<dyn FnMut() -> Result<bool> + 'a>;

/// One measured (device, size, mode).
#[derive(serde::Serialize)]
struct Record {
    date: String,
    device: String,
    backend: String,
    driver: String,
    arith: String,
    mode: &'static str,
    /// MSMs per timed call (`batch` and `singles` rows; times are per MSM).
    batch: Option<usize>,
    /// `MsmConfig::memory_budget` of the row, bytes.
    memory_budget: Option<u64>,
    log2_n: u32,
    n: usize,
    window_bits: Option<u32>,
    median_ms: f64,
    min_ms: f64,
    points_per_s: f64,
    arkworks_ms: Option<f64>,
    speedup: Option<f64>,
    verified: bool,
    /// Device time of the MSM's stages from timestamp queries (resident runs with
    /// `--profile`, where the adapter has timestamps).
    gpu_ms: Option<f64>,
}

/// Where a record came from: device name, backend, driver, multiply path.
struct Source {
    device: String,
    backend: String,
    driver: String,
    arith: String,
}

impl Source {
    /// Records of device `d` under `cfg`.
    fn device(d: &Device, cfg: &MsmConfig) -> Result<Source> {
        let info = d.info();
        Ok(Source {
            device: info.name.clone(),
            backend: info.backend.to_string(),
            driver: info.driver.clone(),
            arith: d.resolve_arithmetic(cfg.arithmetic)?.name().into(),
        })
    }

    /// Records of a cluster shown as `label`, over `devices` under `cfg`.
    fn cluster(label: &str, devices: &[Device], cfg: &MsmConfig) -> Result<Source> {
        let first = devices.first().ok_or(Error::NoDevice {
            hint: "bench needs a device".into(),
        })?;
        Ok(Source {
            device: label.to_string(),
            backend: String::new(),
            driver: String::new(),
            arith: first.resolve_arithmetic(cfg.arithmetic)?.name().into(),
        })
    }
}

impl Record {
    /// A record from a timing `(median ms, min ms, verified)` of `n` = 2^lg points.
    fn new(
        date: &str,
        src: &Source,
        mode: &'static str,
        lg: u32,
        window_bits: Option<u32>,
        t: (f64, f64, bool),
        ark_ms: Option<f64>,
    ) -> Record {
        let (med, min, ok) = t;
        let n = 1usize << lg;
        Record {
            date: date.to_string(),
            device: src.device.clone(),
            backend: src.backend.clone(),
            driver: src.driver.clone(),
            arith: src.arith.clone(),
            mode,
            batch: None,
            memory_budget: None,
            log2_n: lg,
            n,
            window_bits,
            median_ms: med,
            min_ms: min,
            points_per_s: n as f64 / (med / 1e3),
            arkworks_ms: ark_ms,
            speedup: ark_ms.map(|a| a / med),
            verified: ok,
            gpu_ms: None,
        }
    }
}

impl Record {
    /// The mode as the table shows it: `batch/16`, `16x single`, `oneshot*` (budget).
    fn label(&self) -> String {
        match (self.mode, self.batch, self.memory_budget) {
            ("batch", Some(k), _) => format!("batch/{k}"),
            ("singles", Some(k), _) => format!("{k}x single"),
            (m, _, Some(_)) => format!("{m}*"),
            (m, _, _) => m.to_string(),
        }
    }
}

/// `--rotate`: one-shot MSMs of every size in turn on each device, `repeat` timed
/// rounds after an untimed one; one `rotate` record per (device, size).
fn rotation(
    args: &BenchArgs,
    devices: &[Device],
    table: &[G1Affine],
    sizes: &[u32],
    cfg: &MsmConfig,
    date: &str,
    records: &mut Vec<Record>,
) -> Result<()> {
    let inputs: Vec<(u32, Vec<G1Affine>, Vec<Fr>, G1Affine)> = sizes
        .iter()
        .map(|&lg| {
            let (b, s) = parity_inputs(table, 1usize << lg);
            let want = reference(lg, &b, &s)?;
            Ok((lg, b, s, want))
        })
        .collect::<Result<_>>()?;
    for d in devices {
        let src = Source::device(d, cfg)?;
        let mut ms = vec![Vec::new(); inputs.len()];
        let mut ok = vec![true; inputs.len()];
        for round in 0..=args.repeat.max(1) {
            for (k, (_, b, s, want)) in inputs.iter().enumerate() {
                let t = Instant::now();
                let r = d.msm(b, s, cfg)?;
                let took = t.elapsed().as_secs_f64() * 1e3;
                ok[k] &= r.into_affine() == *want;
                if round > 0 {
                    ms[k].push(took);
                }
            }
        }
        for (k, (lg, ..)) in inputs.iter().enumerate() {
            let (med, min) = median_min(&mut ms[k]);
            let t = (med, min, ok[k]);
            records.push(Record::new(date, &src, "rotate", *lg, args.window, t, None));
        }
    }
    Ok(())
}

fn parse_sizes(s: &str) -> Result<Vec<u32>> {
    let bad = || Error::InvalidConfig(format!("bad --sizes {s:?}: use 10..24 or 10,12,16"));
    if let Some((a, b)) = s.split_once("..") {
        let a: u32 = a.trim().parse().map_err(|_| bad())?;
        let b: u32 = b
            .trim_start_matches('=')
            .trim()
            .parse()
            .map_err(|_| bad())?;
        return Ok((a..=b).collect());
    }
    s.split(',')
        .map(|t| t.trim().parse().map_err(|_| bad()))
        .collect()
}

/// Strategies from `auto,even,windows`.
fn parse_strategies(s: &str) -> std::result::Result<Vec<Strategy>, String> {
    s.split(',')
        .map(|t| match t.trim().to_lowercase().as_str() {
            "auto" => Ok(Strategy::Auto),
            "even" => Ok(Strategy::Even),
            "weighted" => Ok(Strategy::Weighted),
            "dynamic" => Ok(Strategy::Dynamic),
            "windows" => Ok(Strategy::Windows),
            other => Err(format!("unknown strategy {other:?}")),
        })
        .collect()
}

/// Bytes from `1073741824`, `1GiB`, `512MiB` or `64KiB`.
fn parse_bytes(s: &str) -> std::result::Result<u64, String> {
    let t = s.trim();
    let (num, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let shift = match unit.trim() {
        "" | "B" => 0,
        "KiB" | "K" => 10,
        "MiB" | "M" => 20,
        "GiB" | "G" => 30,
        u => {
            return Err(format!(
                "unknown unit {u:?} in {s:?}: use B, KiB, MiB or GiB"
            ))
        }
    };
    let n: u64 = num.parse().map_err(|_| format!("bad byte count {s:?}"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("{s:?} does not fit 64 bits"))
}

/// `k` scalar sets for a batch: set `c` is `scalars` times `c + 1`, so its MSM is the
/// reference times `c + 1` (verifiable at every size the reference covers).
fn batch_sets(scalars: &[Fr], k: usize) -> Vec<Vec<Fr>> {
    (1..=k as u64)
        .map(|c| {
            let c = Fr::from(c);
            scalars.iter().map(|s| *s * c).collect()
        })
        .collect()
}

/// The median and the minimum of `v` (not empty).
fn median_min(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0])
}

/// arkworks' MSM of the inputs.
fn arkworks(bases: &[G1Affine], scalars: &[Fr]) -> Result<G1Projective> {
    G1Projective::msm(bases, scalars).map_err(|_| Error::InvalidConfig("arkworks msm".into()))
}

/// The expected MSM of 2^`lg` parity inputs: the CUDA parity vector where there is one,
/// else one untimed arkworks run, so every result is verified at any size.
fn reference(lg: u32, bases: &[G1Affine], scalars: &[Fr]) -> Result<G1Affine> {
    match parity_expected(lg) {
        Some(w) => Ok(w),
        None => Ok(arkworks(bases, scalars)?.into_affine()),
    }
}

fn today() -> String {
    let out = std::process::Command::new("date").arg("+%Y-%m-%d").output();
    out.ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(String::new, |s| s.trim().to_string())
}

/// Times `f` `args.repeat` times after a warm-up (`args.warmup_ms`); returns (median
/// ms, min ms, all results verified). `f` runs the work and says whether its results
/// verified. With `--samples`, prints the times in the order they ran under `label`.
fn time<F: FnMut() -> Result<bool>>(
    args: &BenchArgs,
    label: &dyn Fn() -> String,
    mut f: F,
) -> Result<(f64, f64, bool)> {
    let warm = Instant::now();
    let mut ok = f()?;
    log::debug!(
        "{} first call: {:.2} ms",
        label(),
        warm.elapsed().as_secs_f64() * 1e3
    );
    while warm.elapsed().as_millis() < u128::from(args.warmup_ms) {
        ok &= f()?;
    }
    let mut ms = Vec::with_capacity(args.repeat);
    for i in 0..args.repeat.max(1) {
        let t = Instant::now();
        ok &= f()?;
        ms.push(t.elapsed().as_secs_f64() * 1e3);
        log::debug!("{} repeat {i}: {:.2} ms", label(), ms[i]);
    }
    if args.samples {
        let all: Vec<String> = ms.iter().map(|t| format!("{t:.2}")).collect();
        eprintln!("samples {}: {}", label(), all.join(" "));
    }
    let (med, min) = median_min(&mut ms);
    Ok((med, min, ok))
}

/// Runs the benchmark; returns whether every result verified.
pub(crate) fn run(args: &BenchArgs) -> Result<bool> {
    let sizes = parse_sizes(&args.sizes)?;
    let sel = args
        .devices
        .as_deref()
        .map_or_else(Selection::from_env, Selection::parse);
    let devices = Device::all_with(&sel, false)?;
    super::list::print(&devices);
    let table = parity_bases(PARITY_BASES);
    let cfg = MsmConfig {
        arithmetic: args.arith.into(),
        window_bits: args.window,
        chunk_size: args.chunk.map(|c| 1usize << c),
        ..Default::default()
    };
    let oneshot_cfg = MsmConfig {
        memory_budget: args.budget,
        ..cfg.clone()
    };
    let date = today();
    let mut records = Vec::new();
    let mut profiles = Vec::new();
    let mut cluster_reports = Vec::new();
    let pb = ProgressBar::new((sizes.len() * (devices.len() + 1)) as u64);
    pb.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    for &lg in &sizes {
        let n = 1usize << lg;
        pb.set_message(format!("2^{lg}: inputs"));
        let (bases, scalars) = parity_inputs(&table, n);
        let (want, ark_ms) = if lg <= args.ark_max {
            pb.set_message(format!("2^{lg}: arkworks"));
            let mut ms = Vec::new();
            let mut r = G1Projective::default();
            for _ in 0..args.repeat.clamp(1, 3) {
                let t = Instant::now();
                r = arkworks(&bases, &scalars)?;
                ms.push(t.elapsed().as_secs_f64() * 1e3);
            }
            (r.into_affine(), Some(median_min(&mut ms).0))
        } else {
            pb.set_message(format!("2^{lg}: reference"));
            (reference(lg, &bases, &scalars)?, None)
        };
        let check = |r: G1Projective| r.into_affine() == want;
        // Batch sets and their references (set c is the reference times c + 1).
        let sets = args
            .batch
            .map_or_else(Vec::new, |k| batch_sets(&scalars, k));
        let set_refs: Vec<&[Fr]> = sets.iter().map(Vec::as_slice).collect();
        let check_all = |rs: &[G1Projective]| {
            rs.len() == sets.len()
                && rs
                    .iter()
                    .enumerate()
                    .all(|(c, r)| *r == want * Fr::from(c as u64 + 1))
        };
        pb.inc(1);
        for d in &devices {
            pb.set_message(format!("2^{lg}: {}", d.name()));
            let info = d.info();
            let resident = d.upload_bases(&bases)?;
            let on_device = d.upload_scalars(&scalars)?;
            let src = Source::device(d, &cfg)?;
            let modes: [(&'static str, MsmFn); 3] = [
                (
                    "oneshot",
                    Box::new(|| Ok(check(d.msm(&bases, &scalars, &oneshot_cfg)?))),
                ),
                (
                    "resident",
                    Box::new(|| Ok(check(d.msm_with(&resident, &scalars, &cfg)?))),
                ),
                (
                    "device",
                    Box::new(|| Ok(check(d.msm_resident(&resident, &on_device, &cfg)?))),
                ),
            ];
            for (mode, f) in modes {
                let t = time(args, &|| format!("#{} {mode} 2^{lg}", d.index()), f)?;
                let mut r = Record::new(&date, &src, mode, lg, args.window, t, ark_ms);
                if mode == "oneshot" {
                    r.memory_budget = args.budget;
                }
                records.push(r);
            }
            if let Some(k) = args.batch {
                pb.set_message(format!("2^{lg}: {}, batch of {k}", d.name()));
                let modes: [(&'static str, MsmFn); 2] = [
                    (
                        "batch",
                        Box::new(|| Ok(check_all(&d.msm_batch(&resident, &set_refs, &cfg)?))),
                    ),
                    (
                        "singles",
                        Box::new(|| {
                            let rs: Vec<G1Projective> = set_refs
                                .iter()
                                .map(|s| d.msm_with(&resident, s, &cfg))
                                .collect::<Result<_>>()?;
                            Ok(check_all(&rs))
                        }),
                    ),
                ];
                for (mode, f) in modes {
                    let (med, min, ok) =
                        time(args, &|| format!("#{} {mode} 2^{lg} x{k}", d.index()), f)?;
                    let t = (med / k as f64, min / k as f64, ok);
                    let mut r = Record::new(&date, &src, mode, lg, args.window, t, ark_ms);
                    r.batch = Some(k);
                    records.push(r);
                }
            }
            if args.profile {
                // One profiled run of each mode (`profile` set in its config).
                let name = format!("#{} {}", d.index(), info.name);
                let runs: [(&str, MsmFn); 3] = [
                    (
                        "resident",
                        Box::new(|| Ok(check(d.msm_with(&resident, &scalars, &profiled(&cfg))?))),
                    ),
                    (
                        "oneshot",
                        Box::new(|| Ok(check(d.msm(&bases, &scalars, &profiled(&oneshot_cfg))?))),
                    ),
                    (
                        "device",
                        Box::new(|| {
                            Ok(check(d.msm_resident(
                                &resident,
                                &on_device,
                                &profiled(&cfg),
                            )?))
                        }),
                    ),
                ];
                for (mode, mut run) in runs {
                    run()?;
                    let Some(p) = d.last_profile() else { continue };
                    if mode == "resident" {
                        if let Some(r) = records.iter_mut().rev().find(|r| r.mode == mode) {
                            r.gpu_ms = Some(p.device_ms());
                        }
                    }
                    profiles.push((name.clone(), mode.to_string(), lg, p));
                }
            }
            pb.inc(1);
        }
        for &strategy in &args.strategy {
            // The cluster of every selected device (one device: the scheduler's overhead).
            pb.set_message(format!("2^{lg}: cluster ({strategy:?})"));
            let cluster = wgpu_msm::Cluster::new(devices.clone())?.with_strategy(strategy);
            let label = match strategy {
                Strategy::Auto => format!("cluster of {}", devices.len()),
                s => format!("cluster of {} {s:?}", devices.len()).to_lowercase(),
            };
            let t = time(args, &|| format!("{label} oneshot 2^{lg}"), || {
                Ok(check(cluster.msm(&bases, &scalars, &oneshot_cfg)?))
            })?;
            if let Some(r) = cluster.last_report() {
                cluster_reports.push((lg, r));
            }
            if args.profile {
                // Profiled runs: each device's share, as its stream saw it; with
                // `--profile-runs` above 1, the fastest and the slowest run.
                let pcfg = profiled(&oneshot_cfg);
                let runs = args.profile_runs.max(1);
                let mut kept: Vec<(f64, Vec<(String, wgpu_msm::StageProfile)>)> = Vec::new();
                for _ in 0..runs {
                    let t = Instant::now();
                    let _ = cluster.msm(&bases, &scalars, &pcfg)?;
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    let per_device = devices
                        .iter()
                        .filter_map(|d| {
                            d.last_profile()
                                .map(|p| (format!("#{} {}", d.index(), d.name()), p))
                        })
                        .collect();
                    kept.push((ms, per_device));
                }
                kept.sort_by(|a, b| a.0.total_cmp(&b.0));
                if runs > 1 {
                    eprintln!(
                        "{label} 2^{lg}: {runs} profiled runs, fastest {:.2} ms, slowest {:.2} ms",
                        kept[0].0,
                        kept[runs - 1].0
                    );
                }
                let last = kept.len() - 1;
                for (i, (_, per_device)) in kept.into_iter().enumerate() {
                    let which = match (i, runs) {
                        (_, 1) => "",
                        (0, _) => " fastest",
                        (i, _) if i == last => " slowest",
                        _ => continue,
                    };
                    for (name, p) in per_device {
                        profiles.push((name, format!("{label} oneshot{which}"), lg, p));
                    }
                }
            }
            let src = Source::cluster(&label, &devices, &cfg)?;
            let mut r = Record::new(&date, &src, "oneshot", lg, args.window, t, ark_ms);
            r.memory_budget = args.budget;
            records.push(r);
            let resident = cluster.upload_bases(&bases)?;
            let t = time(args, &|| format!("{label} resident 2^{lg}"), || {
                Ok(check(cluster.msm_with(&resident, &scalars, &cfg)?))
            })?;
            records.push(Record::new(
                &date,
                &src,
                "resident",
                lg,
                args.window,
                t,
                ark_ms,
            ));
            let on_device = cluster.upload_scalars(&resident, &scalars)?;
            let t = time(args, &|| format!("{label} device 2^{lg}"), || {
                Ok(check(cluster.msm_resident(&resident, &on_device, &cfg)?))
            })?;
            records.push(Record::new(
                &date,
                &src,
                "device",
                lg,
                args.window,
                t,
                ark_ms,
            ));
            if args.profile {
                // One profiled run of each resident mode: each device's share, and the
                // call's own time beside the devices' (the cluster's cost).
                let runs: [(&str, MsmFn); 2] = [
                    (
                        "resident",
                        Box::new(|| {
                            Ok(check(cluster.msm_with(
                                &resident,
                                &scalars,
                                &profiled(&cfg),
                            )?))
                        }),
                    ),
                    (
                        "device",
                        Box::new(|| {
                            Ok(check(cluster.msm_resident(
                                &resident,
                                &on_device,
                                &profiled(&cfg),
                            )?))
                        }),
                    ),
                ];
                for (mode, mut run) in runs {
                    let t = Instant::now();
                    run()?;
                    println!(
                        "{label} {mode} 2^{lg}: profiled call took {:.2} ms",
                        t.elapsed().as_secs_f64() * 1e3
                    );
                    for d in &devices {
                        if let Some(p) = d.last_profile() {
                            let name = format!("#{} {}", d.index(), d.name());
                            profiles.push((name, format!("{label} {mode}"), lg, p));
                        }
                    }
                }
            }
        }
        if args.cpu_worker {
            // The devices and the host's arkworks: unlike workers, the adaptive Dynamic.
            // A fresh cluster: its first MSM calibrates the workers whose costs are not
            // remembered yet (from an earlier size, or an earlier process: see
            // `Worker::remember_costs`); after the rows above, so the devices have run
            // shares of this size before.
            let label = format!("cluster of {} + cpu", devices.len());
            pb.set_message(format!("2^{lg}: {label}"));
            let cluster = wgpu_msm::Cluster::new(devices.clone())?.with_cpu_worker();
            let src = Source::cluster(&label, &devices, &cfg)?;
            let t = Instant::now();
            let ok = check(cluster.msm(&bases, &scalars, &oneshot_cfg)?);
            let ms = t.elapsed().as_secs_f64() * 1e3;
            if let Some(r) = cluster.last_report() {
                println!("{label} 2^{lg}, first call ({ms:.2} ms):\n{r}");
            }
            let first = Record::new(&date, &src, "first", lg, args.window, (ms, ms, ok), ark_ms);
            records.push(first);
            let t = time(args, &|| format!("{label} oneshot 2^{lg}"), || {
                Ok(check(cluster.msm(&bases, &scalars, &oneshot_cfg)?))
            })?;
            records.push(Record::new(
                &date,
                &src,
                "oneshot",
                lg,
                args.window,
                t,
                ark_ms,
            ));
            if let Some(r) = cluster.last_report() {
                cluster_reports.push((lg, r));
            }
        }
    }
    if args.rotate {
        pb.set_message("rotation");
        rotation(
            args,
            &devices,
            &table,
            &sizes,
            &oneshot_cfg,
            &date,
            &mut records,
        )?;
    }
    pb.finish_and_clear();
    for (lg, r) in &cluster_reports {
        println!("\ncluster report, last run at 2^{lg}:\n{r}");
    }
    if !profiles.is_empty() {
        println!(
            "\nper-stage profile, one run each (ms; device stages from timestamp queries; upload = host \
             conversion into upload buffers, wait = host waiting for one, GB/s = upload bytes / upload, \
             span = device time from the first stage to the last, gaps included, lead = host time to \
             the first submission, drain = host time from the last submission to the readback)"
        );
        println!(
            "{:<20} {:<26} {:>5} {:>8} {:>7} {:>6} {:>9} {:>8} {:>8} {:>10} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6} {:>6} {:>8} {:>8} {:>6}",
            "device", "mode", "log n", "upload", "GB/s", "wait", "decompose", "scan", "scatter",
            "accumulate", "fold", "collect", "reduce", "device", "span", "lead", "drain", "combine", "total", "passes"
        );
        for (name, mode, lg, p) in &profiles {
            let gbs = if p.upload_ms > 0.0 {
                p.upload_bytes as f64 / p.upload_ms / 1e6
            } else {
                0.0
            };
            println!(
                "{:<20} {:<26} {:>5} {:>8.2} {:>7.1} {:>6.2} {:>9.2} {:>8.2} {:>8.2} {:>10.2} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>6.2} {:>6.2} {:>8.2} {:>8.2} {:>6}",
                name.chars().take(20).collect::<String>(),
                mode,
                lg,
                p.upload_ms,
                gbs,
                p.upload_wait_ms,
                p.decompose_ms,
                p.scan_ms,
                p.scatter_ms,
                p.accumulate_ms,
                p.fold_ms,
                p.collect_ms,
                p.reduce_ms,
                p.device_ms(),
                p.span_ms,
                p.lead_ms,
                p.drain_ms,
                p.combine_ms,
                p.total_ms,
                p.passes
            );
        }
    }
    if let Some(t) = &args.timeline {
        let wanted = parse_sizes(t)?;
        for (name, mode, lg, p) in profiles.iter().filter(|x| wanted.contains(&x.2)) {
            print_timeline(&format!("{name}, {mode}, 2^{lg}"), &p.timeline);
        }
    }
    println!(
        "\n{:<10} {:<28} {:<10} {:<11} {:>6} {:>11} {:>11} {:>12} {:>8} {:>8}",
        "date",
        "device",
        "arith",
        "mode",
        "log n",
        "median ms",
        "min ms",
        "arkworks ms",
        "speedup",
        "verified"
    );
    for r in &records {
        println!(
            "{:<10} {:<28} {:<10} {:<11} {:>6} {:>11.2} {:>11.2} {:>12} {:>8} {:>8}",
            r.date,
            r.device.chars().take(28).collect::<String>(),
            r.arith,
            r.label(),
            r.log2_n,
            r.median_ms,
            r.min_ms,
            r.arkworks_ms.map_or("-".into(), |a| format!("{a:.1}")),
            r.speedup.map_or("-".into(), |s| format!("{s:.1}x")),
            r.verified
        );
    }
    if let Some(b) = args.budget {
        println!(
            "oneshot*: under a memory budget of {b} bytes ({:.1} MiB)",
            b as f64 / f64::from(1 << 20)
        );
    }
    if let Some(k) = args.batch {
        println!(
            "batch/{k}: one msm_batch of {k} sets, per MSM; {k}x single: {k} msm_with calls, \
             per MSM (same resident bases and sets)"
        );
        for b in records.iter().filter(|r| r.mode == "batch") {
            let single = records
                .iter()
                .find(|r| r.mode == "singles" && r.device == b.device && r.log2_n == b.log2_n);
            if let Some(s) = single {
                println!(
                    "{} 2^{}: batch of {k}, per MSM {:.2} ms; {k} single msm_with calls, per MSM {:.2} ms; batch {:.2}x",
                    b.device,
                    b.log2_n,
                    b.median_ms,
                    s.median_ms,
                    s.median_ms / b.median_ms
                );
            }
        }
    }
    if let Some(p) = &args.json {
        let s = serde_json::to_string_pretty(&records)
            .map_err(|e| Error::InvalidConfig(e.to_string()))?;
        std::fs::write(p, s).map_err(|e| Error::InvalidConfig(format!("{}: {e}", p.display())))?;
    }
    if let Some(p) = &args.csv {
        let mut s = String::from("date,device,backend,arith,mode,log2_n,median_ms,min_ms,points_per_s,arkworks_ms,speedup,verified,batch,memory_budget\n");
        for r in &records {
            s += &format!(
                "{},{},{},{},{},{},{:.3},{:.3},{:.0},{},{},{},{},{}\n",
                r.date,
                r.device.replace(',', ";"),
                r.backend,
                r.arith,
                r.mode,
                r.log2_n,
                r.median_ms,
                r.min_ms,
                r.points_per_s,
                r.arkworks_ms.map_or(String::new(), |a| format!("{a:.3}")),
                r.speedup.map_or(String::new(), |a| format!("{a:.3}")),
                r.verified,
                r.batch.map_or(String::new(), |k| k.to_string()),
                r.memory_budget.map_or(String::new(), |b| b.to_string())
            );
        }
        std::fs::write(p, s).map_err(|e| Error::InvalidConfig(format!("{}: {e}", p.display())))?;
    }
    if let Some(dir) = &args.plot {
        for f in super::plot::from_records(&records, dir)? {
            println!("wrote {}", f.display());
        }
    }
    let all_ok = records.iter().all(|r| r.verified);
    if !all_ok {
        println!("VERIFICATION FAILED");
    }
    Ok(all_ok)
}

/// Prints one profiled MSM's timeline, an event a line, with the idle gap the device
/// had before each of its stages.
fn print_timeline(title: &str, events: &[wgpu_msm::TimelineEvent]) {
    println!(
        "\ntimeline of {title} (ms from the call's start; device gap = idle before the stage)"
    );
    let mut device_end: Option<f64> = None;
    for e in events {
        let gap = match (e.on, device_end) {
            ("device", Some(end)) => format!("{:>7.2}", e.start_ms - end),
            _ => String::new(),
        };
        println!(
            "  {:<6} {:<18} {:>8.2} {:>8.2} {:>7.2} {gap}",
            e.on,
            e.what,
            e.start_ms,
            e.end_ms,
            e.end_ms - e.start_ms
        );
        if e.on == "device" {
            device_end = Some(device_end.map_or(e.end_ms, |d: f64| d.max(e.end_ms)));
        }
    }
}
