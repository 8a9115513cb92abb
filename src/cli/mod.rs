//! Command-line interface: argument parsing and dispatch to one module per command.

mod bench;
mod check;
mod groups;
mod list;
mod plot;
mod transfer;

use clap::{Parser, Subcommand, ValueEnum};
use wgpu_msm::{Arithmetic, Device, Result};

#[derive(Parser)]
#[command(
    name = "wgpu-msm",
    version,
    about = "BN254 and BLS12-381 MSM on every GPU through wgpu"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// Largest log2 MSM size any command takes: 2^32 points hold 412 GB of inputs, beyond
/// any host today. Each command also checks the host memory its job needs
/// (`check::host_bytes`), so a size this host cannot hold is an error before any
/// allocation.
pub(crate) const MAX_LOG_SIZE: u32 = 32;

/// Clap's parser of a log2 size, `0..=MAX_LOG_SIZE`.
fn log_size() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(0..=i64::from(MAX_LOG_SIZE))
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum Arith {
    Auto,
    Wide64,
    Portable32,
}

impl From<Arith> for Arithmetic {
    fn from(a: Arith) -> Arithmetic {
        match a {
            Arith::Auto => Arithmetic::Auto,
            Arith::Wide64 => Arithmetic::Wide64,
            Arith::Portable32 => Arithmetic::Portable32,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Table of the selected devices.
    List,
    /// Run and verify one MSM per device and one on all devices (the default command);
    /// for BN254 G1 (the default) then the same for BLS12-381 G1 on the hardware
    /// devices (`--group g2` runs a G2 group).
    Run {
        /// log2 of the MSM size (0 to 32, within the host's memory).
        #[arg(long, default_value_t = 16, value_parser = log_size())]
        log_size: u32,
        #[command(flatten)]
        group: groups::GroupArgs,
    },
    /// Check against the CUDA parity vectors (tests/data) at the given sizes.
    Parity {
        /// log2 sizes, e.g. `16,18,20`.
        #[arg(long, value_delimiter = ',', default_value = "16", value_parser = log_size())]
        sizes: Vec<u32>,
        /// Multiply path.
        #[arg(long, value_enum, default_value = "auto")]
        arith: Arith,
        #[command(flatten)]
        group: groups::GroupArgs,
    },
    /// Time MSMs per device over a size range, beside arkworks on the CPU.
    Bench(Box<bench::BenchArgs>),
    /// Throughput of 32-bit multiplies, packed byte dot products (`dot4U8Packed`), field
    /// multiplies and mixed additions per device (each the best of three runs after half
    /// a second of untimed ones, so that an idle GPU has raised its clocks).
    Arith {
        /// Threads per dispatch.
        #[arg(long, default_value_t = 1 << 20, value_parser = clap::value_parser!(u32).range(1..))]
        threads: u32,
        /// Dependent operations per thread.
        #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
        iters: u32,
    },
    /// SVG plots of time against size per mode from saved `bench` rows (`--json` files
    /// or its printed table), beside arkworks and CUDA's reference figures.
    Plot(plot::PlotArgs),
    /// Host-to-device, device-to-host and device-to-device bandwidth.
    Transfer {
        /// MiB per transfer (1 to 65536, within the host's memory).
        #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65536))]
        mib: u64,
    },
}

/// Prints arithmetic throughput per device and multiply path.
fn arith(threads: u32, iters: u32) -> Result<bool> {
    use wgpu_msm::throughput::{measure, ArithOp};
    let devices = Device::all()?;
    println!(
        "{:<34} {:<10} {:>14} {:>14} {:>14} {:>14} {:>12}",
        "device", "path", "u32 mul G/s", "dot4 G/s", "Fq mul G/s", "madd G/s", "u32 mul/Fq mul"
    );
    for d in &devices {
        for path in [wgpu_msm::MulPath::Wide64, wgpu_msm::MulPath::Portable32] {
            if path == wgpu_msm::MulPath::Wide64 && !d.info().shader_int64 {
                continue;
            }
            let r: Vec<f64> = ArithOp::ALL
                .iter()
                .map(|&op| measure(d, path, op, threads, iters, 3))
                .collect::<Result<_>>()?;
            println!(
                "{:<34} {:<10} {:>14.2} {:>14.2} {:>14.3} {:>14.4} {:>12.0}",
                d.name().chars().take(34).collect::<String>(),
                path.name(),
                r[0] / 1e9,
                r[1] / 1e9,
                r[2] / 1e9,
                r[3] / 1e9,
                r[0] / r[2]
            );
        }
    }
    Ok(true)
}

/// Runs the parsed command; `Ok(false)` means a verification failed.
pub(crate) fn run() -> Result<bool> {
    let cli = Cli::parse();
    let default_run = Command::Run {
        log_size: 16,
        group: groups::GroupArgs {
            curve: groups::Curve::Bn254,
            group: groups::GroupName::G1,
        },
    };
    match cli.command.unwrap_or(default_run) {
        Command::List => {
            list::print(&Device::all()?);
            Ok(true)
        }
        Command::Run { log_size, group } => check::run(log_size, group.id()?),
        Command::Parity {
            sizes,
            arith,
            group,
        } => check::parity(&sizes, arith.into(), group.id()?),
        Command::Bench(args) => bench::run(&args),
        Command::Plot(args) => plot::run(&args),
        Command::Transfer { mib } => transfer::run(mib),
        Command::Arith { threads, iters } => arith(threads, iters),
    }
}
