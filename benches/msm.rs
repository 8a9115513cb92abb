//! Criterion benches: MSM per device (oneshot and resident bases) beside arkworks on the
//! CPU, and the arithmetic throughput kernels.
//!
//! Run: `cargo bench --bench msm` (sizes from `WGPU_MSM_BENCH_LOG`, default `10,12,14`).
//! Ids carry the adapter, the multiply path and log2 n; throughput is in points.
//! `cargo test --release --benches` runs each once as a smoke test (CI does).

use ark_bn254::G1Projective;
use ark_ec::VariableBaseMSM;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use wgpu_msm::testing::{parity_bases, parity_inputs, PARITY_BASES};
use wgpu_msm::throughput::{ArithOp, Runner};
use wgpu_msm::{Device, MsmConfig};

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
    let devices = devices();
    let table = parity_bases(PARITY_BASES);
    let cfg = MsmConfig::default();
    let mut group = c.benchmark_group("msm");
    group.sample_size(10);
    for lg in sizes() {
        let n = 1usize << lg;
        let (bases, scalars) = parity_inputs(&table, n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(
            BenchmarkId::new("arkworks-cpu", format!("2^{lg}")),
            &lg,
            |b, _| b.iter(|| G1Projective::msm(&bases, &scalars).expect("equal lengths")),
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
