//! One MSM split across every device by a `Cluster`, checked against arkworks, with the
//! cluster's report.
//!
//! Run:    cargo run --release --example cluster_msm -- [--log-n 16] [--logical 2] [--cpu]
//!             [--strategy auto|even|weighted|dynamic|windows|all] [--chunk POINTS]
//! Prints: the workers, the warm-up time (kernel compilation), then per strategy the
//!         time, whether the result equals arkworks' `VariableBaseMSM::msm`, and the
//!         `ClusterReport` (per worker: points, chunks, busy seconds, bytes sent,
//!         failures; imbalance and wall time), then the report as JSON.
//!         `--logical K` opens K logical devices per adapter (to see the splitting on a
//!         one-GPU machine); `--cpu` adds arkworks on the host as one more worker.
//!         On lavapipe, each logical device compiles its shaders first (about a minute).

use ark_bn254::G1Projective;
use ark_ec::VariableBaseMSM;
use clap::Parser;
use std::time::Instant;
use wgpu_msm::testing::{random_bases, random_scalars};
use wgpu_msm::{Cluster, ClusterConfig, Device, MsmConfig, Strategy};

#[derive(Parser)]
struct Args {
    /// log2 of the number of points.
    #[arg(long, default_value_t = 16)]
    log_n: u32,
    /// auto, even, weighted, dynamic, windows, or all (the last four in turn, on one
    /// cluster).
    #[arg(long, default_value = "auto")]
    strategy: String,
    /// Logical devices opened per adapter.
    #[arg(long, default_value_t = 1)]
    logical: usize,
    /// Add the CPU (arkworks) as a worker.
    #[arg(long)]
    cpu: bool,
    /// Points per chunk for the dynamic strategy (default: automatic).
    #[arg(long)]
    chunk: Option<usize>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init();
    let args = Args::parse();
    let strategies = match args.strategy.to_lowercase().as_str() {
        "auto" => vec![Strategy::Auto],
        "even" => vec![Strategy::Even],
        "weighted" => vec![Strategy::Weighted],
        "dynamic" => vec![Strategy::Dynamic],
        "windows" => vec![Strategy::Windows],
        "all" => Strategy::ALL.to_vec(),
        other => return Err(format!("unknown strategy {other}").into()),
    };
    let mut devices = Vec::new();
    for d in Device::all()? {
        for _ in 1..args.logical {
            devices.push(d.open_again()?);
        }
        devices.push(d);
    }
    let config = ClusterConfig {
        chunk_points: args.chunk,
        ..Default::default()
    };
    let mut cluster = Cluster::new(devices)?.with_config(config);
    if args.cpu {
        cluster = cluster.with_cpu_worker();
    }
    println!("cluster: {cluster:?}");

    let n = 1usize << args.log_n;
    let bases = random_bases(n, 4096, 7);
    let scalars = random_scalars(n, 7);
    let want = G1Projective::msm(&bases, &scalars).expect("equal lengths");

    // Compile every device's kernels first (one-point MSMs, in parallel), so that the
    // reports below show steady-state work rather than shader compilation.
    let t = Instant::now();
    std::thread::scope(|s| {
        for d in cluster.devices() {
            let (b, sc) = (&bases[..1], &scalars[..1]);
            s.spawn(move || d.msm(b, sc, &MsmConfig::default()).map(|_| ()));
        }
    });
    println!(
        "warm-up (shader compilation): {:.3} s",
        t.elapsed().as_secs_f64()
    );
    let mut mismatches = 0;
    for strategy in strategies {
        cluster.set_strategy(strategy);
        let t = Instant::now();
        let got = cluster.msm(&bases, &scalars, &MsmConfig::default())?;
        let secs = t.elapsed().as_secs_f64();
        let verdict = if got == want {
            "matches arkworks"
        } else {
            "MISMATCH with arkworks"
        };
        println!(
            "{:?}: 2^{} points in {secs:.3} s, {verdict}",
            cluster.resolved_strategy(),
            args.log_n
        );
        let report = cluster.last_report().ok_or("no report")?;
        print!("{report}");
        println!("{}", serde_json::to_string_pretty(&report)?);
        mismatches += usize::from(got != want);
    }
    if mismatches > 0 {
        return Err(format!("{mismatches} result(s) differ from arkworks").into());
    }
    Ok(())
}
