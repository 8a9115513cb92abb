//! `bench`: MSM timings per device over a size range, each verified, beside arkworks on
//! the CPU in the same run. Medians of repeats after a warm-up; input generation is
//! outside the timed region.

use ark_bn254::{Fr, G1Projective};
use ark_ec::CurveGroup;
use indicatif::{ProgressBar, ProgressStyle};
use std::time::Instant;
use wgpu_msm::device::enumerate::Selection;
use wgpu_msm::testing::{parity_bases, parity_inputs, PARITY_BASES};
use wgpu_msm::{Device, MsmConfig, Result, Strategy};

mod group;
mod measure;
mod parse;
mod record;
mod report;
mod rotation;

use measure::{arkworks, batch_sets, median_min, profiled, reference, time, today, MsmFn};
use parse::{parse_bytes, parse_sizes, parse_strategies};
use record::{Record, Source};
use rotation::rotation;

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
    /// Split scalars with the GLV endomorphism (`MsmConfig::glv`: `true` or `false`;
    /// default: `true`, as `MsmConfig::glv = None`). Groups other than BN254 G1.
    #[arg(long)]
    glv: Option<bool>,
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
    /// Memory budget of the per-device resident rows on top of the bases they hold:
    /// each runs with `MsmConfig::memory_budget` = the resident bases' device bytes plus
    /// this (`1GiB`), so its host scalars stream through passes that fit it.
    #[arg(long, value_parser = parse_bytes)]
    resident_budget: Option<u64>,
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
    /// at 345-600 MHz for 0.2-0.5 s, 2-3x slower (docs/benchmark-log.md v27).
    #[arg(long, default_value_t = wgpu_msm::throughput::WARMUP.as_millis() as u64)]
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
    #[command(flatten)]
    group: crate::cli::groups::GroupArgs,
}

impl BenchArgs {
    /// `cfg` for the resident rows: with `--resident-budget`, a memory budget of that
    /// many bytes on top of the `bases` bytes the rows' resident bases hold.
    pub(super) fn resident_cfg(&self, cfg: &MsmConfig, bases: u64) -> MsmConfig {
        MsmConfig {
            memory_budget: self.resident_budget.map(|b| b + bases),
            ..cfg.clone()
        }
    }

    /// The memory budget a row of `mode` runs under: `--budget` for the one-shot rows,
    /// `resident_cfg`'s for the resident rows, none for the others.
    pub(super) fn budget_of(&self, mode: &str, resident_cfg: &MsmConfig) -> Option<u64> {
        match mode {
            "oneshot" => self.budget,
            "resident" => resident_cfg.memory_budget,
            _ => None,
        }
    }
}

/// Runs the benchmark; returns whether every result verified.
pub(crate) fn run(args: &BenchArgs) -> Result<bool> {
    let sizes = parse_sizes(&args.sizes)?;
    match args.group.id()? {
        wgpu_msm::GroupId::Bn254G1 => {}
        g @ wgpu_msm::GroupId::Bls12381G1 => {
            return group::run::<ark_bls12_381::g1::Config>(args, &sizes, g)
        }
        g @ wgpu_msm::GroupId::Bn254G2 => {
            return group::run::<ark_bn254::g2::Config>(args, &sizes, g)
        }
        g @ wgpu_msm::GroupId::Bls12381G2 => {
            return group::run::<ark_bls12_381::g2::Config>(args, &sizes, g)
        }
    }
    let sel = args
        .devices
        .as_deref()
        .map_or_else(Selection::from_env, Selection::parse);
    let devices = Device::all_with(&sel, false)?;
    super::list::print(&devices);
    check_host(args, &sizes, &devices)?;
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
            let resident_cfg = args.resident_cfg(&cfg, resident.device_bytes());
            let src = Source::device(d, &cfg)?;
            let modes: [(&'static str, MsmFn); 3] = [
                (
                    "oneshot",
                    Box::new(|| Ok(check(d.msm(&bases, &scalars, &oneshot_cfg)?))),
                ),
                (
                    "resident",
                    Box::new(|| Ok(check(d.msm_with(&resident, &scalars, &resident_cfg)?))),
                ),
                (
                    "device",
                    Box::new(|| Ok(check(d.msm_resident(&resident, &on_device, &cfg)?))),
                ),
            ];
            for (mode, f) in modes {
                let t = time(args, &|| format!("#{} {mode} 2^{lg}", d.index()), f)?;
                let mut r = Record::new(&date, &src, mode, lg, args.window, t, ark_ms);
                r.memory_budget = args.budget_of(mode, &resident_cfg);
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
            let label = cluster_label(strategy, devices.len());
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
    report::print_and_save(args, &records, &profiles, &cluster_reports)
}

/// The rows' name of a cluster of `devices` devices under `strategy`: "cluster of 2"
/// for `Auto`, "cluster of 2 windows" for the others.
fn cluster_label(strategy: Strategy, devices: usize) -> String {
    match strategy {
        Strategy::Auto => format!("cluster of {devices}"),
        s => format!("cluster of {devices} {s:?}").to_lowercase(),
    }
}

/// Checks that the host holds the largest size's job (with `--rotate`, every size's
/// inputs at once): inputs, arkworks up to `--ark-max`, `--batch` scalar sets, and on
/// CPU adapters the resident bases (128 bytes a point), resident scalars (32) and a
/// pass's buffers.
fn check_host(args: &BenchArgs, sizes: &[u32], devices: &[Device]) -> Result<()> {
    let scalar = std::mem::size_of::<Fr>() as u64;
    let job = |lg: u32| {
        let n = 1usize << lg;
        let sets = (args.batch.unwrap_or(0) as u64).saturating_mul(n as u64 * scalar);
        super::check::host_bytes(devices, n, lg <= args.ark_max, 128 + scalar).saturating_add(sets)
    };
    let mut needed = sizes.iter().map(|&lg| job(lg)).max().unwrap_or(0);
    if args.rotate {
        let inputs = sizes.iter().map(|&lg| wgpu_msm::host::input_bytes(1 << lg));
        needed = needed.saturating_add(inputs.fold(0, u64::saturating_add));
    }
    wgpu_msm::host::check(&format!("bench --sizes {}", args.sizes), needed)
}
