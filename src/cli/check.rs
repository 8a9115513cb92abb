//! The main job (run and verify an MSM on each device) and the CUDA parity check, for
//! the group `--curve`/`--group` ask for.

use super::groups::{arkworks, CliGroup};
use ark_bn254::G1Projective;
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use std::time::Instant;
use wgpu_msm::testing::{checked_parity_inputs, parity_bases, PARITY_BASES};
use wgpu_msm::{Arithmetic, ClusterGroup, Device, GroupId, MsmConfig, Result};

/// Largest log2 size of the other groups' MSM in the default run (each verified
/// against arkworks on the host).
const OTHER_GROUPS_MAX_LOG: u32 = 16;

/// The main job of `group`: for BN254 G1 [`main_job`] followed by one MSM of BLS12-381
/// G1 on each hardware device and across them; for another group its MSM on each
/// device and across all of them.
///
/// The other groups skip software adapters, where their kernels' cold builds would
/// lengthen every run (docs/drivers.md has the times); `--curve` runs a group there
/// when asked.
pub(crate) fn run(log_size: u32, group: GroupId) -> Result<bool> {
    match group {
        GroupId::Bn254G1 => {
            let devices = Device::all()?;
            let ok = main_job(&devices, log_size)?;
            let lg = log_size.min(OTHER_GROUPS_MAX_LOG);
            let hardware: Vec<Device> = devices
                .iter()
                .filter(|d| !d.info().software)
                .cloned()
                .collect();
            let mut others = true;
            // The G2 groups run when asked (`--group g2`) only: their cold pipeline
            // builds take tens of seconds even on a GPU (docs/drivers.md).
            for g in GroupId::ALL
                .into_iter()
                .filter(|&g| g != group && g.degree() == 1)
            {
                if hardware.is_empty() {
                    println!("\n{g}: not run on software adapters (`--curve` runs it there)");
                    continue;
                }
                others &= match g {
                    GroupId::Bls12381G1 => {
                        device_rows::<ark_bls12_381::g1::Config>(&hardware, lg, g)?
                    }
                    _ => true,
                };
            }
            Ok(ok && others)
        }
        GroupId::Bls12381G1 => group_rows::<ark_bls12_381::g1::Config>(log_size, group),
        GroupId::Bn254G2 => group_rows::<ark_bn254::g2::Config>(log_size, group),
        GroupId::Bls12381G2 => group_rows::<ark_bls12_381::g2::Config>(log_size, group),
    }
}

/// The main job of a group other than BN254 G1: the devices, then its MSM on each and
/// across all of them.
fn group_rows<C: CliGroup>(log_size: u32, group: GroupId) -> Result<bool> {
    let devices = Device::all()?;
    super::list::print(&devices);
    device_rows::<C>(&devices, log_size, group)
}

/// One MSM of 2^lg parity inputs of `C` on each device and across all of them,
/// verified against arkworks; returns whether all verified.
fn device_rows<C: CliGroup>(devices: &[Device], lg: u32, group: GroupId) -> Result<bool> {
    let n = 1usize << lg;
    let what = format!("run of {group} at 2^{lg} (inputs, arkworks, CPU adapters)");
    wgpu_msm::host::check(&what, host_bytes(devices, n, true, 0))?;
    let (bases, scalars) = C::parity_inputs(n);
    let t = Instant::now();
    let want = arkworks::<C>(&bases, &scalars)?;
    let ark_ms = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "\n{group} MSM of 2^{lg} points, verified against arkworks ({ark_ms:.1} ms on the CPU):"
    );
    verified_rows(devices, &bases, &scalars, &want)
}

/// One MSM of `bases` and `scalars` on each device, then one split across all of them
/// (a `Cluster`, whose per-device report follows), each checked against `want`: a row
/// each, then whether all verified (also the return value).
fn verified_rows<C: ClusterGroup>(
    devices: &[Device],
    bases: &[Affine<C>],
    scalars: &[C::ScalarField],
    want: &Projective<C>,
) -> Result<bool> {
    println!("{:<40} {:>12} {:>10}", "device", "time (ms)", "verified");
    // One MSM's row (its time since `started`); whether it verified.
    let verdict = |label: String, started: Instant, got: Result<Projective<C>>| {
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let ok = matches!(&got, Ok(g) if g == want);
        if let Err(e) = &got {
            eprintln!("{label}: {e}");
        }
        println!("{label:<40} {ms:>12.1} {ok:>10}");
        ok
    };
    let mut all_ok = true;
    for d in devices {
        let t = Instant::now();
        let got = d.msm(bases, scalars, &MsmConfig::default());
        all_ok &= verdict(format!("#{} {}", d.index(), d.name()), t, got);
    }
    let cluster = wgpu_msm::Cluster::new(devices.to_vec())?;
    let t = Instant::now();
    let got = cluster.msm(bases, scalars, &MsmConfig::default());
    all_ok &= verdict(format!("all {} device(s), one MSM", devices.len()), t, got);
    if let Some(report) = cluster.last_report() {
        println!("\n{report}");
    }
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

/// Host memory a job of `n` points needs: its bases and scalars, arkworks' reference
/// MSM when `reference`, and on each CPU adapter (whose device memory is host memory) a
/// pass's working buffers plus `device_per_point` bytes a point of resident inputs.
pub(crate) fn host_bytes(
    devices: &[Device],
    n: usize,
    reference: bool,
    device_per_point: u64,
) -> u64 {
    let mut bytes = wgpu_msm::host::input_bytes(n);
    if reference {
        bytes = bytes.saturating_add(wgpu_msm::host::arkworks_msm_bytes(n));
    }
    for d in devices.iter().filter(|d| d.info().software) {
        let pass = d
            .pass_capacity(&MsmConfig::default())
            .map_or(0, |c| c.bytes);
        bytes = bytes
            .saturating_add(pass)
            .saturating_add(device_per_point.saturating_mul(n as u64));
    }
    bytes
}

/// Lists devices, runs one BN254 G1 MSM of 2^log_size on each and one across all of
/// them, and checks each against arkworks.
pub(crate) fn main_job(devices: &[Device], log_size: u32) -> Result<bool> {
    super::list::print(devices);
    let n = 1usize << log_size;
    let what = format!("run --log-size {log_size} (inputs, arkworks, CPU adapters)");
    wgpu_msm::host::check(&what, host_bytes(devices, n, true, 0))?;
    let table = parity_bases(PARITY_BASES);
    let (bases, scalars) = checked_parity_inputs(&table, n)?;
    let t = Instant::now();
    let want =
        G1Projective::msm(&bases, &scalars).map_err(|_| wgpu_msm::Error::LengthMismatch {
            bases: bases.len(),
            scalars: scalars.len(),
        })?;
    let ark_ms = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "\nMSM of 2^{log_size} points, verified against arkworks ({ark_ms:.1} ms on the CPU):"
    );
    verified_rows(devices, &bases, &scalars, &want)
}

/// Checks every device against the CUDA parity vectors of `group` at `sizes` (log2).
pub(crate) fn parity(sizes: &[u32], arith: Arithmetic, group: GroupId) -> Result<bool> {
    match group {
        GroupId::Bn254G1 => parity_in::<ark_bn254::g1::Config>(sizes, arith),
        GroupId::Bls12381G1 => parity_in::<ark_bls12_381::g1::Config>(sizes, arith),
        GroupId::Bn254G2 | GroupId::Bls12381G2 => Err(wgpu_msm::Error::InvalidConfig(format!(
            "no CUDA parity vectors for {group} (run checks it against arkworks)"
        ))),
    }
}

fn parity_in<C: CliGroup>(sizes: &[u32], arith: Arithmetic) -> Result<bool> {
    let devices = Device::all()?;
    let mut all_ok = true;
    println!(
        "{:<40} {:>6} {:>12} {:>8}",
        "device", "log n", "time (ms)", "match"
    );
    for &lg in sizes {
        let Some(want) = C::parity_expected(lg) else {
            eprintln!("no CUDA vector for 2^{lg}");
            all_ok = false;
            continue;
        };
        let what = format!("parity at 2^{lg} (inputs, CPU adapters)");
        wgpu_msm::host::check(&what, host_bytes(&devices, 1 << lg, false, 0))?;
        let (bases, scalars) = C::parity_inputs(1 << lg);
        for d in &devices {
            let t = Instant::now();
            let got = d.msm(&bases, &scalars, &MsmConfig::with_arithmetic(arith));
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let ok = matches!(&got, Ok(g) if g.into_affine() == want);
            if let Err(e) = &got {
                eprintln!("{d:?}: {e}");
            }
            all_ok &= ok;
            println!(
                "{:<40} {:>6} {:>12.1} {:>8}",
                format!("#{} {}", d.index(), d.name()),
                lg,
                ms,
                ok
            );
        }
    }
    Ok(all_ok)
}
