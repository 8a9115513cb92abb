//! Arithmetic throughput on a device: 32-bit multiplies, packed byte dot products, Fq
//! Montgomery multiplications and mixed point additions per second, each from a kernel
//! of long dependent chains.
//! The ratio of field multiplies to 32-bit multiplies says how close the field multiply
//! is to the hardware (a 256-bit CIOS multiply costs 128 32-bit products plus carries).

use crate::config::MulPath;
use crate::device::gpu;
use crate::device::Device;
use crate::error::Result;
use crate::shader::ShaderKind;
use crate::time::Instant;
use ark_ec::AffineRepr;
use std::time::Duration;

/// An operation whose throughput is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum ArithOp {
    /// 32-bit integer multiply(-add).
    U32Mul,
    /// Packed dot product of four bytes (`dot4U8Packed`) plus a 32-bit add.
    Dot4,
    /// Fq Montgomery multiplication.
    FqMul,
    /// Mixed addition XYZZ + affine.
    Madd,
}

impl ArithOp {
    /// Every operation.
    pub const ALL: [ArithOp; 4] = [
        ArithOp::U32Mul,
        ArithOp::Dot4,
        ArithOp::FqMul,
        ArithOp::Madd,
    ];

    fn entry(self) -> &'static str {
        match self {
            ArithOp::U32Mul => "bench_u32_mul",
            ArithOp::Dot4 => "bench_dot4",
            ArithOp::FqMul => "bench_fq_mul",
            ArithOp::Madd => "bench_madd",
        }
    }

    /// Operations one thread performs per iteration.
    pub fn per_iter(self) -> u64 {
        match self {
            ArithOp::U32Mul | ArithOp::Dot4 => 8,
            ArithOp::FqMul | ArithOp::Madd => 1,
        }
    }
}

/// A throughput kernel bound and ready to dispatch repeatedly.
pub struct Runner {
    dev: Device,
    pipeline: wgpu::ComputePipeline,
    bind: wgpu::BindGroup,
    threads: u32,
    /// Operations per dispatch.
    pub ops: u64,
}

impl Runner {
    /// Prepares `op` on `dev` for `threads` threads of `iters` iterations each.
    ///
    /// # Errors
    /// Shader or allocation errors as [`crate::Error`] values.
    pub fn new(
        dev: &Device,
        path: MulPath,
        op: ArithOp,
        threads: u32,
        iters: u32,
    ) -> Result<Runner> {
        let d = dev.wgpu_device();
        let k = dev.msm_state()?.kernels(
            dev,
            crate::curve::GroupId::Bn254G1,
            ShaderKind::BenchArith,
            path,
        )?;
        let g = ark_bn254::G1Affine::generator();
        let (x, y) = (
            crate::msm::encode::field_words(&g.x),
            crate::msm::encode::field_words(&g.y),
        );
        let mut input = Vec::with_capacity(16 * threads as usize);
        for t in 0..threads {
            input.extend_from_slice(&x);
            let mut yy = y;
            if matches!(op, ArithOp::U32Mul | ArithOp::Dot4) {
                yy[0] ^= t;
            }
            input.extend_from_slice(&yy);
        }
        let ta = gpu::create_buffer(d, "throughput/in", 4 * input.len() as u64, gpu::STORAGE)?;
        let tb = gpu::create_buffer(d, "throughput/iters", 16, gpu::STORAGE)?;
        let tout = gpu::create_buffer(d, "throughput/out", 4 * u64::from(threads), gpu::STORAGE)?;
        dev.wgpu_queue()
            .write_buffer(&ta, 0, bytemuck::cast_slice(&input));
        dev.wgpu_queue()
            .write_buffer(&tb, 0, bytemuck::cast_slice(&[iters, 0, 0, 0]));
        let bind = gpu::bind_whole(d, &k.layout, "throughput", &[&ta, &tb, &tout])?;
        Ok(Runner {
            dev: dev.clone(),
            pipeline: k.get(op.entry()).clone(),
            bind,
            threads,
            ops: u64::from(threads) * u64::from(iters) * op.per_iter(),
        })
    }

    /// Runs the kernel once and waits for it; returns the wall-clock time.
    ///
    /// # Errors
    /// [`crate::Error::Poll`] when waiting on the device fails.
    pub fn run_once(&self) -> Result<Duration> {
        let d = self.dev.wgpu_device();
        let mut enc = d.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("throughput"),
        });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("throughput"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.bind, &[]);
            let (x, y) = crate::msm::stages::grid(
                u64::from(self.threads),
                self.dev.info().max_workgroups_per_dimension,
            );
            pass.dispatch_workgroups(x, y, 1);
        }
        let t = Instant::now();
        self.dev.wgpu_queue().submit([enc.finish()]);
        d.poll(wgpu::PollType::wait_indefinitely())?;
        Ok(t.elapsed())
    }
}

/// Device work before anything is timed: an idle GPU lowers its clocks and raises them
/// only under load (docs/benchmark-log.md, v27 and v39). [`measure`] runs its kernel
/// untimed for this long; `wgpu-msm bench --warmup-ms` defaults to it.
pub const WARMUP: Duration = Duration::from_millis(500);

/// Operations per second of `op`: the best of `repeat` timed runs after untimed runs
/// that keep the device busy for [`WARMUP`].
///
/// # Errors
/// As [`Runner::new`] and [`Runner::run_once`].
pub fn measure(
    dev: &Device,
    path: MulPath,
    op: ArithOp,
    threads: u32,
    iters: u32,
    repeat: usize,
) -> Result<f64> {
    let r = Runner::new(dev, path, op, threads, iters)?;
    let mut busy = Duration::ZERO;
    while busy < WARMUP {
        busy += r.run_once()?;
    }
    let mut best = Duration::MAX;
    for _ in 0..repeat.max(1) {
        best = best.min(r.run_once()?);
    }
    Ok(r.ops as f64 / best.as_secs_f64())
}
