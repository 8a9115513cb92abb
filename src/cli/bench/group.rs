//! `bench --curve/--group` for a group other than BN254 G1: per size the three modes
//! (`oneshot`, `resident`, `device`) on each device and on the cluster of all of them
//! (one set of rows per `--strategy`), each verified, beside arkworks on the CPU, and
//! with `--profile` one profiled run of each mode per device. Batches, the CPU worker,
//! rotation and saved records are BN254 G1's only (a note says what is skipped).

use super::measure::{profiled, time};
use super::record::mode_label;
use super::BenchArgs;
use crate::cli::groups::{arkworks, reference, CliGroup};
use ark_ec::CurveGroup;
use std::time::Instant;
use wgpu_msm::device::enumerate::Selection;
use wgpu_msm::{Cluster, Device, GroupId, MsmConfig, Result};

/// The single-device modes, in the order they are timed.
const MODES: [&str; 3] = ["oneshot", "resident", "device"];

/// Runs the benchmark of `group` (`C`); returns whether every result verified.
pub(super) fn run<C: CliGroup>(args: &BenchArgs, sizes: &[u32], group: GroupId) -> Result<bool> {
    if args.batch.is_some() || args.cpu_worker || args.rotate || args.json.is_some() {
        eprintln!(
            "bench {group}: batch, cpu-worker, rotate and saved records are for bn254-g1 \
             only; timing the devices and the cluster"
        );
    }
    let sel = args
        .devices
        .as_deref()
        .map_or_else(Selection::from_env, Selection::parse);
    let devices = Device::all_with(&sel, false)?;
    crate::cli::list::print(&devices);
    let cfg = MsmConfig {
        arithmetic: args.arith.into(),
        window_bits: args.window,
        chunk_size: args.chunk.map(|c| 1usize << c),
        glv: args.glv,
        ..Default::default()
    };
    let oneshot_cfg = MsmConfig {
        memory_budget: args.budget,
        ..cfg.clone()
    };
    println!(
        "\n{:<8} {:<14} {:<34} {:>5} {:>10} {:>10} {:>9}",
        "date", "group", "device", "log n", "mode", "median ms", "verified"
    );
    let date = super::measure::today();
    let row = |dev: &str, lg: u32, mode: &str, ms: f64, ok: bool| {
        println!(
            "{:<8} {:<14} {:<34} {lg:>5} {mode:>10} {ms:>10.2} {ok:>9}",
            date.get(5..).unwrap_or(&date),
            group.name(),
            dev.chars().take(34).collect::<String>()
        );
    };
    let mut all_ok = true;
    let mut profiles = Vec::new();
    let mut reports = Vec::new();
    for &lg in sizes {
        let n = 1usize << lg;
        let what = format!("bench of {group} at 2^{lg}");
        wgpu_msm::host::check(
            &what,
            crate::cli::check::host_bytes(&devices, n, lg <= args.ark_max, 0),
        )?;
        let (bases, scalars) = C::parity_inputs(n);
        let want = if lg <= args.ark_max {
            let t = Instant::now();
            let r = arkworks::<C>(&bases, &scalars)?.into_affine();
            row(
                "arkworks (cpu)",
                lg,
                "cpu",
                t.elapsed().as_secs_f64() * 1e3,
                true,
            );
            r
        } else {
            reference::<C>(lg, &bases, &scalars)?
        };
        let check = |r: ark_ec::short_weierstrass::Projective<C>| r.into_affine() == want;
        for d in &devices {
            let name = format!("#{} {}", d.index(), d.name());
            let label = || format!("{name} 2^{lg}");
            let resident = d.upload_bases_with(&bases, &cfg)?;
            let on_device = d.upload_scalars::<C>(&scalars)?;
            let resident_cfg = args.resident_cfg(&cfg, resident.device_bytes());
            // One MSM in `mode`, profiled or not; whether it verified.
            let msm = |mode: &str, profile: bool| -> Result<bool> {
                let with = |c: &MsmConfig| if profile { profiled(c) } else { c.clone() };
                let r = match mode {
                    "oneshot" => d.msm(&bases, &scalars, &with(&oneshot_cfg))?,
                    "resident" => d.msm_with(&resident, &scalars, &with(&resident_cfg))?,
                    _ => d.msm_resident(&resident, &on_device, &with(&cfg))?,
                };
                Ok(check(r))
            };
            for mode in MODES {
                let (ms, _, ok) = time(args, &label, || msm(mode, false))?;
                let label = mode_label(mode, args.budget_of(mode, &resident_cfg));
                row(&name, lg, &label, ms, ok);
                all_ok &= ok;
            }
            if args.profile {
                // One profiled run of each mode (`profile` set in its config).
                for mode in MODES {
                    all_ok &= msm(mode, true)?;
                    if let Some(p) = d.last_profile() {
                        profiles.push((name.clone(), mode.to_string(), lg, p));
                    }
                }
            }
        }
        for &strategy in &args.strategy {
            // The cluster of every selected device (one device: the scheduler's overhead).
            let cluster = Cluster::new(devices.clone())?.with_strategy(strategy);
            let name = super::cluster_label(strategy, devices.len());
            let label = || format!("{name} 2^{lg}");
            let resident = cluster.upload_bases(&bases)?;
            let on_device = cluster.upload_scalars(&resident, &scalars)?;
            for mode in MODES {
                let (ms, _, ok) = time(args, &label, || {
                    let r = match mode {
                        "oneshot" => cluster.msm(&bases, &scalars, &oneshot_cfg)?,
                        "resident" => cluster.msm_with(&resident, &scalars, &cfg)?,
                        _ => cluster.msm_resident(&resident, &on_device, &cfg)?,
                    };
                    Ok(check(r))
                })?;
                // The cluster's resident rows run under no budget (`cfg`).
                row(
                    &name,
                    lg,
                    &mode_label(mode, args.budget_of(mode, &cfg)),
                    ms,
                    ok,
                );
                all_ok &= ok;
                if mode == "oneshot" {
                    if let Some(r) = cluster.last_report() {
                        reports.push((lg, name.clone(), r));
                    }
                }
            }
        }
    }
    for (lg, name, r) in &reports {
        println!("\n{name}, last one-shot run at 2^{lg}:\n{r}");
    }
    super::report::print_budget_notes(args);
    super::report::print_profiles(&profiles);
    super::report::print_timelines(args, &profiles)?;
    println!(
        "{}",
        if all_ok {
            "all verified"
        } else {
            "VERIFICATION FAILED"
        }
    );
    Ok(all_ok)
}
