//! A Groth16 prover whose MSMs run on the GPU, beside ark-groth16's own CPU prover on the
//! same circuit and keys, both checked by ark-groth16's verifier.
//!
//! Run:    cargo run --release --example groth16 -- [--curve bn254|bls12-381]
//!             [--log-constraints 16] [--repeat 3] [--overlap] [--seed 1]
//! Prints: the adapter; the circuit (a chain of squarings, `2^k - 3` constraints so the
//!         QAP domain is `2^k`); the setup time (ark-groth16, CPU); where each of the five
//!         MSMs runs (GPU or CPU) and the time to prepare the proving key's bases for
//!         them (upload to the GPU); the first GPU proof (with kernel compilation); then
//!         the median of `--repeat` proofs by each prover, with the GPU prover's
//!         breakdown (synthesis, witness map, each MSM, the MSMs' share of the proof;
//!         `--overlap` runs A, B and L beside the witness map instead of after it);
//!         the verifier's verdicts (both proofs, the GPU proof equal to ark-groth16's
//!         for the same `r`, `s`, a tampered public input rejected); and a one-line
//!         `summary` for a table. Exits non-zero when a check fails.
//!         Every MSM runs on the GPU, G2's too, but on the CPU when the GPU fails it
//!         or the adapter is a software one (lavapipe builds G2's pipelines for
//!         minutes; `WGPU_MSM_GROTH16_G2=gpu` or `=cpu` chooses); the output says
//!         where per MSM.

mod circuit;
mod prover;

use ark_ec::pairing::Pairing;
use ark_groth16::{prepare_verifying_key, Groth16};
use ark_std::rand::{rngs::StdRng, SeedableRng};
use ark_std::UniformRand;
use circuit::SquaringChain;
use clap::Parser;
use prover::{Gpu, MsmBackend, PreparedKey, ProveTimes, MSM_NAMES};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use wgpu_msm::Device;

#[derive(Parser)]
struct Args {
    /// bn254 or bls12-381.
    #[arg(long, default_value = "bn254")]
    curve: String,
    /// log2 of the QAP domain: the circuit has 2^k - 3 constraints.
    #[arg(long, default_value_t = 16)]
    log_constraints: u32,
    /// Timed proofs per prover (the median is reported).
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Run the MSMs that need no `h` (A, B, L) on a second thread beside the witness
    /// map, instead of after it.
    #[arg(long)]
    overlap: bool,
    /// Seed of the circuit, the setup and the proofs' randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() -> ExitCode {
    env_logger::init();
    let args = Args::parse();
    let result = Device::all()
        .map_err(|e| e.to_string())
        .and_then(|devices| {
            let backend = Gpu::new(devices[0].clone());
            match args.curve.as_str() {
                "bn254" => run::<ark_bn254::Bn254>(&args, &backend),
                "bls12-381" => run::<ark_bls12_381::Bls12_381>(&args, &backend),
                other => Err(format!("unknown curve {other:?} (bn254 or bls12-381)")),
            }
        });
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Sets up, proves with both provers, verifies and prints; `Ok(false)` when a check
/// fails.
fn run<E: Pairing>(args: &Args, backend: &Gpu) -> Result<bool, String>
where
    Gpu: MsmBackend<E>,
{
    let info = backend.device.info();
    let adapter = format!("{} ({}, {})", info.name, info.backend, info.device_type);
    println!("adapter: {adapter}");
    let mut rng = StdRng::seed_from_u64(args.seed);
    let circuit = SquaringChain::<E::ScalarField>::with_log_domain(args.log_constraints, &mut rng);
    let public = circuit.public_inputs();
    let n = circuit.num_constraints();
    println!(
        "curve: {}, circuit: chain of squarings, {n} constraints, {} public inputs, domain 2^{}",
        args.curve,
        public.len(),
        args.log_constraints
    );

    let t = Instant::now();
    let pk = Groth16::<E>::generate_random_parameters_with_reduction(circuit.clone(), &mut rng)
        .map_err(|e| format!("setup: {e}"))?;
    let setup = t.elapsed();
    let pvk = prepare_verifying_key(&pk.vk);
    println!("setup (ark-groth16, CPU): {:.2} s", setup.as_secs_f64());

    let t = Instant::now();
    let mut prepared = PreparedKey::new(&pk, backend).map_err(|e| format!("prepare key: {e}"))?;
    prepared.overlap = args.overlap;
    let places = prepared.placements();
    println!(
        "proving key prepared for the GPU prover (G1 bases uploaded where they run on the \
         GPU): {:.1} ms",
        ms(t.elapsed())
    );
    let place_list: Vec<String> = MSM_NAMES
        .iter()
        .zip(places)
        .map(|(name, p)| format!("{name} on {p}"))
        .collect();
    println!("MSMs of the GPU prover: {}", place_list.join(", "));
    if places.iter().all(|p| *p == "CPU") {
        println!(
            "note: wgpu-msm serves no group of this curve, so every MSM runs on the CPU \
             (arkworks) in the GPU prover too"
        );
    }

    let prove_gpu = |r, s| {
        prepared
            .prove(circuit.clone(), r, s)
            .map_err(|e| format!("GPU prover: {e}"))
    };
    let (r, s) = (
        E::ScalarField::rand(&mut rng),
        E::ScalarField::rand(&mut rng),
    );
    let (_, first) = prove_gpu(r, s)?;
    println!(
        "first proof of the GPU prover (kernel compilation, first buffers): {:.1} ms",
        ms(first.total)
    );

    let mut ok = true;
    let (mut cpu_times, mut gpu_runs) = (Vec::new(), Vec::new());
    let (mut verified, mut equal) = (0, 0);
    for _ in 0..args.repeat.max(1) {
        let (r, s) = (
            E::ScalarField::rand(&mut rng),
            E::ScalarField::rand(&mut rng),
        );
        let t = Instant::now();
        let cpu = Groth16::<E>::create_proof_with_reduction(circuit.clone(), &pk, r, s)
            .map_err(|e| format!("CPU prover: {e}"))?;
        cpu_times.push(t.elapsed());
        let (gpu, times) = prove_gpu(r, s)?;
        gpu_runs.push(times);
        for proof in [&cpu, &gpu] {
            if Groth16::<E>::verify_proof(&pvk, proof, &public).map_err(|e| e.to_string())? {
                verified += 1;
            }
        }
        equal += usize::from(cpu == gpu);
    }
    let proofs = 2 * cpu_times.len();
    let runs = cpu_times.len();
    ok &= verified == proofs && equal == runs;

    // A proof of x_0 does not verify for x_0 + 1.
    let (gpu, _) = prove_gpu(r, s)?;
    let mut tampered = public.clone();
    tampered[0] += E::ScalarField::from(1u64);
    let rejected = !Groth16::<E>::verify_proof(&pvk, &gpu, &tampered).map_err(|e| e.to_string())?;
    ok &= rejected;

    cpu_times.sort();
    let cpu = cpu_times[runs / 2];
    gpu_runs.sort_by_key(|t| t.total);
    let gpu = &gpu_runs[runs / 2];
    let msm = gpu.msm_total();
    let share = 100.0 * msm.as_secs_f64() / gpu.total.as_secs_f64();
    let on = |place: &str| -> Duration {
        gpu.msm
            .iter()
            .zip(places)
            .filter(|(_, p)| *p == place)
            .map(|(d, _)| *d)
            .sum()
    };
    println!(
        "CPU prove (ark-groth16, {} threads), median of {runs}: {:.1} ms",
        rayon::current_num_threads(),
        ms(cpu)
    );
    println!(
        "GPU prove, median of {runs}: {:.1} ms ({:.2}x ark-groth16)",
        ms(gpu.total),
        cpu.as_secs_f64() / gpu.total.as_secs_f64()
    );
    print_breakdown(gpu, &places, args.overlap);
    println!(
        "verify (ark-groth16): {verified}/{proofs} proofs verify; GPU proof equals \
         ark-groth16's for the same r, s: {equal}/{runs}; tampered public input rejected: {}",
        yes(rejected)
    );
    let g1 = places_of(&places, &[0, 1, 3, 4]);
    let g2 = places[2];
    println!(
        "summary | {} | 2^{} | {n} constraints | setup {:.2} s | CPU prove {:.1} ms | GPU prove \
         {:.1} ms | {:.2}x | MSM {:.1} ms ({share:.0}% of GPU prove; on GPU {:.1} ms, on CPU \
         {:.1} ms) | G1 MSMs on {g1}, G2 MSM on {g2}{} | verified {} | {adapter}",
        args.curve,
        args.log_constraints,
        setup.as_secs_f64(),
        ms(cpu),
        ms(gpu.total),
        cpu.as_secs_f64() / gpu.total.as_secs_f64(),
        ms(msm),
        ms(on("GPU")),
        ms(on("CPU")),
        if args.overlap { " | overlap" } else { "" },
        yes(ok),
    );
    Ok(ok)
}

/// The GPU prover's time per stage and per MSM. With `overlap`, A, B and L ran beside
/// the witness map, so the stages add up to more than the proof.
fn print_breakdown(t: &ProveTimes, places: &[&str; 5], overlap: bool) {
    let msm = t.msm_total();
    let rest = if overlap {
        "A, B and L beside the witness map".to_string()
    } else {
        let rest = t.total.saturating_sub(t.synthesis + t.witness_map + msm);
        format!("assembly and the rest {:.1} ms", ms(rest))
    };
    println!(
        "  synthesis {:.1} ms, witness map {:.1} ms, MSMs {:.1} ms ({:.0}% of the proof), {rest}",
        ms(t.synthesis),
        ms(t.witness_map),
        ms(msm),
        100.0 * msm.as_secs_f64() / t.total.as_secs_f64(),
    );
    for ((name, d), p) in MSM_NAMES.iter().zip(t.msm).zip(places) {
        println!("    MSM {name:<10} on {p}: {:.1} ms", ms(d));
    }
}

/// "GPU", "CPU", or "GPU+CPU" for the MSMs at `idx`.
fn places_of(places: &[&str; 5], idx: &[usize]) -> String {
    let mut p: Vec<&str> = idx.iter().map(|&i| places[i]).collect();
    p.sort();
    p.dedup();
    p.join("+")
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "NO"
    }
}
