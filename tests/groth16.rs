//! The Groth16 example's prover (examples/groth16/) at a small size: its proofs verify
//! with ark-groth16's verifier, equal ark-groth16's own proofs for the same randomness,
//! and fail for a tampered public input. The tests run every MSM on the first wgpu
//! adapter and fail when there is none. On a software adapter (lavapipe in CI) G2's
//! MSM runs on the CPU, since lavapipe builds G2's MSM pipelines for minutes;
//! `WGPU_MSM_GROTH16_G2=gpu` puts it on the device there too (`=cpu` keeps it on the
//! CPU anywhere). A G2 MSM that fell back to the CPU fails the test.

#[allow(dead_code)]
#[path = "../examples/groth16/circuit.rs"]
mod circuit;
#[allow(dead_code)]
#[path = "../examples/groth16/prover.rs"]
mod prover;

use ark_ec::pairing::Pairing;
use ark_ff::{One, Zero};
use ark_groth16::{prepare_verifying_key, Groth16};
use ark_std::rand::{rngs::StdRng, SeedableRng};
use ark_std::UniformRand;
use circuit::SquaringChain;
use prover::{Gpu, MsmBackend, PreparedKey};
use wgpu_msm::Device;

const SEED: u64 = 0x6_2024;

fn gpu() -> Gpu {
    let devices =
        Device::all().unwrap_or_else(|e| panic!("the Groth16 GPU test needs a wgpu adapter ({e})"));
    Gpu::new(devices[0].clone())
}

/// Sets up a chain with a `2^log_domain` domain, proves it through `backend` with
/// random `r`, `s` (the MSMs after the witness map, then beside it) and with
/// `r = s = 0`, and checks each proof against ark-groth16:
/// it verifies, equals ark-groth16's proof for the same `r`, `s`, and fails to verify
/// when either public input is changed. Returns where the MSMs ran.
fn prove_and_check<E: Pairing>(log_domain: u32, backend: &impl MsmBackend<E>) -> [&'static str; 5] {
    let mut rng = StdRng::seed_from_u64(SEED);
    let circuit = SquaringChain::<E::ScalarField>::with_log_domain(log_domain, &mut rng);
    let public = circuit.public_inputs();
    let pk = Groth16::<E>::generate_random_parameters_with_reduction(circuit.clone(), &mut rng)
        .expect("setup");
    let pvk = prepare_verifying_key(&pk.vk);
    let mut prepared = PreparedKey::new(&pk, backend).expect("prepare the proving key");
    let (r, s) = (
        E::ScalarField::rand(&mut rng),
        E::ScalarField::rand(&mut rng),
    );
    let zero = E::ScalarField::zero();
    for (r, s, overlap) in [(r, s, false), (r, s, true), (zero, zero, false)] {
        prepared.overlap = overlap;
        let what = format!("2^{log_domain}, seed {SEED:#x}, r = {r}, s = {s}, overlap {overlap}");
        let (proof, _) = prepared.prove(circuit.clone(), r, s).expect("prove");
        assert!(
            Groth16::<E>::verify_proof(&pvk, &proof, &public).expect("verify"),
            "the proof does not verify ({what})"
        );
        let reference = Groth16::<E>::create_proof_with_reduction(circuit.clone(), &pk, r, s)
            .expect("ark-groth16 prover");
        assert!(
            proof == reference,
            "the proof differs from ark-groth16's ({what})"
        );
        for i in 0..public.len() {
            let mut tampered = public.clone();
            tampered[i] += E::ScalarField::one();
            assert!(
                !Groth16::<E>::verify_proof(&pvk, &proof, &tampered).expect("verify"),
                "the proof verifies for a tampered public input {i} ({what})"
            );
        }
    }
    prepared.placements()
}

/// Where the five MSMs run: all on the GPU, but G2's on the CPU when the backend keeps
/// it there (`Gpu::new`).
fn expected_places(backend: &Gpu) -> [&'static str; 5] {
    let g2 = if backend.g2_on_cpu { "CPU" } else { "GPU" };
    ["GPU", "GPU", g2, "GPU", "GPU"]
}

#[test]
fn bn254_proof_with_gpu_msms_verifies() {
    let backend = gpu();
    let places = prove_and_check::<ark_bn254::Bn254>(9, &backend);
    assert_eq!(
        places,
        expected_places(&backend),
        "BN254's MSMs run on the GPU"
    );
}

#[test]
fn bls12_381_proof_with_gpu_msms_verifies() {
    let backend = gpu();
    let places = prove_and_check::<ark_bls12_381::Bls12_381>(8, &backend);
    assert_eq!(
        places,
        expected_places(&backend),
        "BLS12-381's MSMs run on the GPU"
    );
}
