//! Command-line interface: argument parsing and dispatch to one module per command.

mod bench;
mod check;
mod list;
mod transfer;

use clap::{Parser, Subcommand, ValueEnum};
use wgpu_msm::{Arithmetic, Device, Result};

#[derive(Parser)]
#[command(
    name = "wgpu-msm",
    version,
    about = "BN254 MSM on every GPU through wgpu"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
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
    /// Run and verify one MSM per device and on all devices (the default command).
    Run {
        /// log2 of the MSM size.
        #[arg(long, default_value_t = 16)]
        log_size: u32,
    },
    /// Check against the CUDA parity vectors (tests/data) at the given sizes.
    Parity {
        /// log2 sizes, e.g. `16,18,20`.
        #[arg(long, value_delimiter = ',', default_value = "16")]
        sizes: Vec<u32>,
        /// Multiply path.
        #[arg(long, value_enum, default_value = "auto")]
        arith: Arith,
    },
    /// Time MSMs per device over a size range, beside arkworks on the CPU.
    Bench(bench::BenchArgs),
    /// Host-to-device, device-to-host and device-to-device bandwidth.
    Transfer {
        /// MiB per transfer.
        #[arg(long, default_value_t = 256)]
        mib: u64,
    },
}

/// Runs the parsed command; `Ok(false)` means a verification failed.
pub(crate) fn run() -> Result<bool> {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Run { log_size: 16 }) {
        Command::List => {
            list::print(&Device::all()?);
            Ok(true)
        }
        Command::Run { log_size } => check::main_job(log_size),
        Command::Parity { sizes, arith } => check::parity(&sizes, arith.into()),
        Command::Bench(args) => bench::run(&args),
        Command::Transfer { mib } => transfer::run(mib),
    }
}
