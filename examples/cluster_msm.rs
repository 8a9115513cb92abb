//! One MSM split across every device by a `Cluster`, checked against arkworks, with the
//! cluster's report.
//!
//! Run:    cargo run --release --example cluster_msm -- [--log-n 16] [--logical 2] [--cpu]
//!             [--strategy auto|even|weighted|dynamic|windows|all] [--chunk POINTS]
//!             [--portable32 INDEX] [--repeat N] [--alone]
//! Prints: the workers, the warm-up time (kernel compilation), then per strategy the
//!         time, whether the result equals arkworks' `VariableBaseMSM::msm`, and the
//!         `ClusterReport` (per worker: points, chunks, busy seconds, bytes sent,
//!         failures; imbalance and wall time), then the report as JSON.
//!         `--logical K` opens K logical devices per adapter (to see the splitting on a
//!         one-GPU machine); `--cpu` adds arkworks on the host as one more worker;
//!         `--portable32 I` makes device I run the portable 32-bit multiply path (a
//!         slower worker beside the others: unlike workers on one kind of GPU);
//!         `--repeat N` runs each strategy N times (the adaptive `Dynamic` calibrates
//!         on the first); `--alone` first times each worker alone.
//!         On lavapipe, each logical device compiles its shaders first (about a minute).

use ark_bn254::G1Projective;
use ark_ec::VariableBaseMSM;
use clap::Parser;
use std::sync::Arc;
use std::time::Instant;
use wgpu_msm::testing::{random_bases, random_scalars};
use wgpu_msm::{
    Arithmetic, Cluster, ClusterConfig, CpuWorker, Device, MsmConfig, Strategy, Worker,
};

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
    /// Points per chunk for the dynamic strategy (default: cut to each worker's cost).
    #[arg(long)]
    chunk: Option<usize>,
    /// Index (in the cluster's device list) of a device that runs the portable 32-bit
    /// multiply path.
    #[arg(long)]
    portable32: Option<usize>,
    /// MSMs per strategy.
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// Time each worker alone first (one untimed call, then one timed).
    #[arg(long)]
    alone: bool,
}

/// A device that always runs one multiply path: a worker of its own model, so a
/// cluster treats it as unlike the same device on the other path.
struct Forced {
    device: Device,
    arithmetic: Arithmetic,
}

impl Worker for Forced {
    fn name(&self) -> String {
        format!("{} [{:?}]", Worker::name(&self.device), self.arithmetic)
    }
    fn uid(&self) -> u64 {
        self.device.uid()
    }
    fn model(&self) -> String {
        format!("{} [{:?}]", Worker::model(&self.device), self.arithmetic)
    }
    fn remember_costs(&self) -> bool {
        true
    }
    fn msm_chunk(
        &self,
        bases: &[ark_bn254::G1Affine],
        scalars: &[ark_bn254::Fr],
        cfg: &MsmConfig,
    ) -> wgpu_msm::Result<G1Projective> {
        let cfg = MsmConfig {
            arithmetic: self.arithmetic,
            ..cfg.clone()
        };
        self.device.msm(bases, scalars, &cfg)
    }
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
    let mut workers: Vec<Arc<dyn Worker>> = devices
        .iter()
        .enumerate()
        .map(|(i, d)| -> Arc<dyn Worker> {
            match args.portable32 {
                Some(p) if p == i => Arc::new(Forced {
                    device: d.clone(),
                    arithmetic: Arithmetic::Portable32,
                }),
                _ => Arc::new(d.clone()),
            }
        })
        .collect();
    if args.cpu {
        workers.push(Arc::new(CpuWorker));
    }
    let mut cluster = if args.portable32.is_some() {
        Cluster::from_workers(workers.clone())?
    } else {
        let c = Cluster::new(devices.clone())?;
        if args.cpu {
            c.with_cpu_worker()
        } else {
            c
        }
    }
    .with_config(config);
    println!("cluster: {cluster:?}");

    let n = 1usize << args.log_n;
    let bases = random_bases(n, 4096, 7);
    let scalars = random_scalars(n, 7);
    let want = G1Projective::msm(&bases, &scalars).expect("equal lengths");

    // Compile every device's kernels first (one-point MSMs, in parallel), so that the
    // reports below show steady-state work rather than shader compilation.
    let t = Instant::now();
    std::thread::scope(|s| {
        for w in &workers {
            let (b, sc) = (&bases[..1], &scalars[..1]);
            s.spawn(move || w.msm_chunk(b, sc, &MsmConfig::default()).map(|_| ()));
        }
    });
    println!(
        "warm-up (shader compilation): {:.3} s",
        t.elapsed().as_secs_f64()
    );
    let mut mismatches = 0;
    if args.alone {
        for w in &workers {
            let cfg = MsmConfig::default();
            let _warm = w.msm_chunk(&bases, &scalars, &cfg)?;
            let t = Instant::now();
            let got = w.msm_chunk(&bases, &scalars, &cfg)?;
            let verdict = if got == want { "matches" } else { "MISMATCH" };
            println!(
                "alone: {} 2^{} points in {:.4} s, {verdict}",
                w.name(),
                args.log_n,
                t.elapsed().as_secs_f64()
            );
            mismatches += usize::from(got != want);
        }
    }
    for strategy in strategies {
        cluster.set_strategy(strategy);
        for call in 0..args.repeat.max(1) {
            let t = Instant::now();
            let got = cluster.msm(&bases, &scalars, &MsmConfig::default())?;
            let secs = t.elapsed().as_secs_f64();
            let verdict = if got == want {
                "matches arkworks"
            } else {
                "MISMATCH with arkworks"
            };
            println!(
                "{:?} call {call}: 2^{} points in {secs:.4} s, {verdict}",
                cluster.resolved_strategy(),
                args.log_n
            );
            let report = cluster.last_report().ok_or("no report")?;
            print!("{report}");
            if call + 1 == args.repeat.max(1) {
                println!("{}", serde_json::to_string_pretty(&report)?);
            }
            mismatches += usize::from(got != want);
        }
    }
    if mismatches > 0 {
        return Err(format!("{mismatches} result(s) differ from arkworks").into());
    }
    Ok(())
}
