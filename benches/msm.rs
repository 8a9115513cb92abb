//! Criterion benches: MSM per device (oneshot and resident bases) beside arkworks on the
//! CPU, and the arithmetic throughput kernels.
//!
//! Run: `cargo bench --bench msm` (sizes from `WGPU_MSM_BENCH_LOG`, default `10,12,14`;
//! the group from `WGPU_MSM_BENCH_GROUP`, `bn254-g1` by default or `bls12-381-g1`, whose
//! benches are named `msm/bls12-381-g1`).
//! Ids carry the adapter, the multiply path and log2 n; throughput is in points.
//! `cargo test --release --benches` runs each once as a smoke test (CI does).

use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ec::VariableBaseMSM;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use wgpu_msm::testing::{bls12_381, parity_bases, parity_inputs, PARITY_BASES};
use wgpu_msm::throughput::{ArithOp, Runner};
use wgpu_msm::{Device, Group, MsmConfig};

/// Parity inputs of a group at size n.
type Inputs<C> =
    Box<dyn Fn(usize) -> (Vec<Affine<C>>, Vec<<C as ark_ec::CurveConfig>::ScalarField>)>;

fn sizes() -> Vec<u32> {
    std::env::var("WGPU_MSM_BENCH_LOG")
        .ok()
        .map(|v| v.split(',').filter_map(|t| t.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![10, 12, 14])
}

fn devices() -> Vec<Device> {
    Device::all().unwrap_or_else(|e| panic!("benches need a GPU adapter (lavapipe works): {e}"))
}

fn msm(c: &mut Criterion) {
    match std::env::var("WGPU_MSM_BENCH_GROUP").as_deref() {
        Ok("bls12-381-g1") => {
            let table = bls12_381::parity_bases(bls12_381::PARITY_BASES);
            let inputs: Inputs<ark_bls12_381::g1::Config> =
                Box::new(move |n| bls12_381::parity_inputs(&table, n));
            msm_of(c, "msm/bls12-381-g1", inputs);
        }
        Ok("bn254-g1") | Err(_) => {
            let table = parity_bases(PARITY_BASES);
            let inputs: Inputs<ark_bn254::g1::Config> = Box::new(move |n| parity_inputs(&table, n));
            msm_of(c, "msm", inputs);
        }
        Ok(g) => panic!("WGPU_MSM_BENCH_GROUP={g:?}: bn254-g1 or bls12-381-g1"),
    }
}

fn msm_of<C: Group>(c: &mut Criterion, name: &str, inputs: Inputs<C>) {
    let devices = devices();
    let cfg = MsmConfig::default();
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for lg in sizes() {
        let n = 1usize << lg;
        let (bases, scalars) = inputs(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(
            BenchmarkId::new("arkworks-cpu", format!("2^{lg}")),
            &lg,
            |b, _| b.iter(|| Projective::<C>::msm(&bases, &scalars).expect("equal lengths")),
        );
        for d in &devices {
            let path = d.resolve_arithmetic(cfg.arithmetic).expect("auto resolves");
            let id = format!("{}/{}", d.name(), path.name());
            group.bench_with_input(
                BenchmarkId::new(format!("{id}/oneshot"), format!("2^{lg}")),
                &lg,
                |b, _| b.iter(|| d.msm(&bases, &scalars, &cfg).expect("msm")),
            );
            let resident = d.upload_bases(&bases).expect("upload");
            group.bench_with_input(
                BenchmarkId::new(format!("{id}/resident"), format!("2^{lg}")),
                &lg,
                |b, _| b.iter(|| d.msm_with(&resident, &scalars, &cfg).expect("msm")),
            );
        }
    }
    group.finish();
}

fn arith(c: &mut Criterion) {
    let devices = devices();
    let mut group = c.benchmark_group("arith");
    group.sample_size(10);
    for d in &devices {
        for path in [wgpu_msm::MulPath::Wide64, wgpu_msm::MulPath::Portable32] {
            if path == wgpu_msm::MulPath::Wide64 && !d.info().shader_int64 {
                continue;
            }
            for op in ArithOp::ALL {
                let threads = if d.info().software { 1 << 12 } else { 1 << 20 };
                let r = Runner::new(d, path, op, threads, 64).expect("throughput kernel");
                group.throughput(Throughput::Elements(r.ops));
                let id = format!("{}/{}/{op:?}", d.name(), path.name());
                group.bench_function(id, |b| {
                    b.iter_custom(|iters| (0..iters).map(|_| r.run_once().expect("dispatch")).sum())
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, msm, arith);
criterion_main!(benches);
