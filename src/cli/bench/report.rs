//! `bench`'s output: the cluster reports, per-stage profiles and timelines, the table
//! of records, and the JSON and CSV files.

use super::parse::parse_sizes;
use super::record::Record;
use super::BenchArgs;
use wgpu_msm::{Error, Result};

/// Prints what the run measured and writes the files `args` asks for; returns whether
/// every result verified.
pub(super) fn print_and_save(
    args: &BenchArgs,
    records: &[Record],
    profiles: &[(String, String, u32, wgpu_msm::StageProfile)],
    cluster_reports: &[(u32, wgpu_msm::ClusterReport)],
) -> Result<bool> {
    for (lg, r) in cluster_reports {
        println!("\ncluster report, last run at 2^{lg}:\n{r}");
    }
    print_profiles(profiles);
    print_timelines(args, profiles)?;
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
    for r in records {
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
    print_budget_notes(args);
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
        let s = serde_json::to_string_pretty(records)
            .map_err(|e| Error::InvalidConfig(e.to_string()))?;
        std::fs::write(p, s).map_err(|e| Error::InvalidConfig(format!("{}: {e}", p.display())))?;
    }
    if let Some(p) = &args.csv {
        let mut s = String::from("date,device,backend,arith,mode,log2_n,median_ms,min_ms,points_per_s,arkworks_ms,speedup,verified,batch,memory_budget\n");
        for r in records {
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
        for f in super::super::plot::from_records(&records, dir)? {
            println!("wrote {}", f.display());
        }
    }
    let all_ok = records.iter().all(|r| r.verified);
    if !all_ok {
        println!("VERIFICATION FAILED");
    }
    Ok(all_ok)
}

/// Prints the timelines of the profiled MSMs at the sizes `--timeline` names.
///
/// # Errors
/// A `--timeline` that does not parse as sizes.
pub(super) fn print_timelines(
    args: &BenchArgs,
    profiles: &[(String, String, u32, wgpu_msm::StageProfile)],
) -> Result<()> {
    if let Some(t) = &args.timeline {
        let wanted = parse_sizes(t)?;
        for (name, mode, lg, p) in profiles.iter().filter(|x| wanted.contains(&x.2)) {
            print_timeline(&format!("{name}, {mode}, 2^{lg}"), &p.timeline);
        }
    }
    Ok(())
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

/// Prints one row per profiled MSM: its device stages and host phases.
pub(super) fn print_profiles(profiles: &[(String, String, u32, wgpu_msm::StageProfile)]) {
    if !profiles.is_empty() {
        println!(
            "\nper-stage profile, one run each (ms; device stages from timestamp queries; upload = host \
             conversion into upload buffers, wait = host waiting for one, GB/s = upload bytes / upload, \
             span = device time from the first stage to the last, gaps included, lead = host time to \
             the first submission, drain = host time from the last submission to the readback, running = \
             the most accumulation workgroups the last pass saw running at once)"
        );
        println!(
            "{:<20} {:<26} {:>5} {:>8} {:>7} {:>6} {:>9} {:>8} {:>8} {:>10} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6} {:>6} {:>8} {:>8} {:>6} {:>7}",
            "device", "mode", "log n", "upload", "GB/s", "wait", "decompose", "scan", "scatter",
            "accumulate", "fold", "collect", "reduce", "device", "span", "lead", "drain", "combine", "total", "passes", "running"
        );
        for (name, mode, lg, p) in profiles {
            let gbs = if p.upload_ms > 0.0 {
                p.upload_bytes as f64 / p.upload_ms / 1e6
            } else {
                0.0
            };
            println!(
                "{:<20} {:<26} {:>5} {:>8.2} {:>7.1} {:>6.2} {:>9.2} {:>8.2} {:>8.2} {:>10.2} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>6.2} {:>6.2} {:>8.2} {:>8.2} {:>6} {:>7}",
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
                p.passes,
                p.running
            );
        }
    }
}

/// The footnotes of the rows marked `*`: what budget each ran under.
pub(super) fn print_budget_notes(args: &BenchArgs) {
    let mib = |b: u64| b as f64 / f64::from(1 << 20);
    if let Some(b) = args.budget {
        println!(
            "oneshot*: under a memory budget of {b} bytes ({:.1} MiB)",
            mib(b)
        );
    }
    if let Some(b) = args.resident_budget {
        println!(
            "resident*: under a memory budget of {b} bytes ({:.1} MiB) on top of the resident bases",
            mib(b)
        );
    }
}
