//! The core crate's per-operation test kernels on the browser's GPU, compared with
//! arkworks in WebAssembly: `test_fq_mul` and `test_curve_madd`, portable 32-bit path.
//!
//! The WGSL comes from the core crate's public shader builder
//! ([`wgpu_msm::shader::source_with`]), operands and results are its word layout
//! ([`wgpu_msm::msm::encode::field_words`], [`wgpu_msm::opcheck::affine_words`]:
//! Montgomery form, 32-bit words, least significant first; (0, 0) is infinity); only
//! the dispatch is written here, with wgpu directly and without blocking: the readback
//! awaits `map_async` through a channel that the browser's event loop completes.

use crate::compile;
use crate::error::{Result, WebError};
use crate::gpu::BrowserGpu;
use ark_bn254::{Fq, G1Affine, G1Projective};
use ark_ec::{AffineRepr, CurveGroup};
use ark_std::rand::{rngs::StdRng, SeedableRng};
use ark_std::UniformRand;
use web_time::Instant;
use wgpu_msm::msm::encode::field_words;
use wgpu_msm::opcheck::{affine_words, AFFINE_WORDS, FIELD_WORDS};
use wgpu_msm::shader::ShaderKind;

/// `@workgroup_size` of the test kernels (`shaders/test_field.wgsl`, `test_curve.wgsl`).
const WORKGROUP: u32 = 64;

/// The outcome and timings of one kernel check.
#[derive(Clone, Debug)]
pub struct KernelReport {
    /// The entry point.
    pub entry: &'static str,
    /// Elements computed.
    pub n: usize,
    /// The seed of the random operands.
    pub seed: u64,
    /// Results that differ from arkworks' (over both dispatches).
    pub mismatches: usize,
    /// The first differing index, if any.
    pub first_mismatch: Option<usize>,
    /// Milliseconds to create the shader module (all test kernels of its kind) and have
    /// the browser report its compilation messages.
    pub module_ms: f64,
    /// Milliseconds to create the pipeline and have its validation scope answer
    /// (Chromium compiles the pipeline before it answers).
    pub pipeline_ms: f64,
    /// Milliseconds from the first submit to the mapped result.
    pub first_run_ms: f64,
    /// Milliseconds of a second, identical dispatch and readback.
    pub second_run_ms: f64,
    /// Milliseconds of the same operations with arkworks on the CPU (in wasm, in the page).
    pub cpu_ms: f64,
}

impl std::fmt::Display for KernelReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} x {} (seed {}): {} mismatches against arkworks; module {:.1} ms, \
             pipeline {:.1} ms, first run {:.1} ms, second run {:.1} ms, arkworks {:.2} ms",
            self.entry,
            self.n,
            self.seed,
            self.mismatches,
            self.module_ms,
            self.pipeline_ms,
            self.first_run_ms,
            self.second_run_ms,
            self.cpu_ms,
        )
    }
}

/// Multiplies `n` random pairs of base-field elements with `test_fq_mul` on `gpu` and
/// with arkworks, and compares the products word for word.
///
/// # Errors
/// As [`run`].
pub async fn field_mul(gpu: &BrowserGpu, n: usize, seed: u64) -> Result<KernelReport> {
    let mut rng = StdRng::seed_from_u64(seed);
    let a: Vec<Fq> = (0..n).map(|_| Fq::rand(&mut rng)).collect();
    let b: Vec<Fq> = (0..n).map(|_| Fq::rand(&mut rng)).collect();
    let t = Instant::now();
    let want: Vec<u32> = a
        .iter()
        .zip(&b)
        .flat_map(|(x, y)| field_words(&(*x * *y)))
        .collect();
    let cpu_ms = ms(t);
    let words = |v: &[Fq]| -> Vec<u32> { v.iter().flat_map(field_words).collect() };
    let spec = Spec {
        kind: ShaderKind::TestField,
        entry: "test_fq_mul",
        stride: FIELD_WORDS,
        n,
        seed,
    };
    run(gpu, spec, &words(&a), &words(&b), &want, cpu_ms).await
}

/// Adds `n` pairs of points with `test_curve_madd` (XYZZ + affine, result in affine
/// form) on `gpu` and with arkworks. The pairs start with the cases a mixed addition
/// must special-case (P + P, P + (-P), infinity on either side, infinity twice), then
/// random pairs.
///
/// # Errors
/// As [`run`].
pub async fn curve_madd(gpu: &BrowserGpu, n: usize, seed: u64) -> Result<KernelReport> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut point = || (G1Projective::rand(&mut rng)).into_affine();
    let inf = G1Affine::zero();
    let p = point();
    let special = [(p, p), (p, -p), (-p, p), (p, inf), (inf, p), (inf, inf)];
    let pairs: Vec<(G1Affine, G1Affine)> = special
        .into_iter()
        .chain(std::iter::repeat_with(|| (point(), point())))
        .take(n)
        .collect();
    let t = Instant::now();
    let want: Vec<u32> = pairs
        .iter()
        .flat_map(|(a, b)| affine_words(&(*a + *b).into_affine()))
        .collect();
    let cpu_ms = ms(t);
    let a: Vec<u32> = pairs.iter().flat_map(|(a, _)| affine_words(a)).collect();
    let b: Vec<u32> = pairs.iter().flat_map(|(_, b)| affine_words(b)).collect();
    let spec = Spec {
        kind: ShaderKind::TestCurve,
        entry: "test_curve_madd",
        stride: AFFINE_WORDS,
        n,
        seed,
    };
    run(gpu, spec, &a, &b, &want, cpu_ms).await
}

/// Which test kernel, over how many elements of how many words.
struct Spec {
    kind: ShaderKind,
    entry: &'static str,
    stride: usize,
    n: usize,
    seed: u64,
}

/// Builds `spec`'s kernel, runs it twice over `a` and `b` and compares both outputs
/// with `want`.
///
/// # Errors
/// [`WebError::Invalid`] for `n == 0` or more elements than one dispatch holds;
/// [`WebError::Shader`] when the module or pipeline fails; readback errors as values.
async fn run(
    gpu: &BrowserGpu,
    spec: Spec,
    a: &[u32],
    b: &[u32],
    want: &[u32],
    cpu_ms: f64,
) -> Result<KernelReport> {
    let Spec {
        kind,
        entry,
        stride,
        n,
        seed,
    } = spec;
    let groups = u32::try_from(n.div_ceil(WORKGROUP as usize)).unwrap_or(u32::MAX);
    let max_groups = gpu.device.limits().max_compute_workgroups_per_dimension;
    if n == 0 || groups > max_groups {
        return Err(WebError::Invalid(format!(
            "{entry} needs 1..={} elements, got {n}",
            u64::from(max_groups) * u64::from(WORKGROUP)
        )));
    }
    let d = &gpu.device;
    let (module, module_ms) = compile::module(gpu, kind).await?;
    let (pipeline, pipeline_ms) = compile::pipeline(gpu, &module, entry).await?;

    let bytes = (n * stride * 4) as u64;
    let storage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
    let buf_a = buffer(d, "web/a", bytes, storage);
    let buf_b = buffer(d, "web/b", bytes, storage);
    // The kernels count elements from the output's length, so it is exact.
    let buf_out = buffer(d, "web/out", bytes, storage);
    gpu.queue.write_buffer(&buf_a, 0, bytemuck::cast_slice(a));
    gpu.queue.write_buffer(&buf_b, 0, bytemuck::cast_slice(b));
    let bind = d.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("web/opcheck"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            entry_of(0, &buf_a),
            entry_of(1, &buf_b),
            entry_of(2, &buf_out),
        ],
    });

    let t = Instant::now();
    let first = dispatch(gpu, entry, &pipeline, &bind, &buf_out, groups, bytes).await?;
    let first_run_ms = ms(t);
    let t = Instant::now();
    let second = dispatch(gpu, entry, &pipeline, &bind, &buf_out, groups, bytes).await?;
    let second_run_ms = ms(t);

    let bad: Vec<usize> = [first, second]
        .iter()
        .flat_map(|got| {
            got.chunks_exact(stride)
                .zip(want.chunks_exact(stride))
                .enumerate()
                .filter(|(_, (g, w))| g != w)
                .map(|(i, _)| i)
        })
        .collect();
    Ok(KernelReport {
        entry,
        n,
        seed,
        mismatches: bad.len(),
        first_mismatch: bad.first().copied(),
        module_ms,
        pipeline_ms,
        first_run_ms,
        second_run_ms,
        cpu_ms,
    })
}

/// Runs the pipeline once over `groups` workgroups and reads `buf_out` back.
async fn dispatch(
    gpu: &BrowserGpu,
    entry: &str,
    pipeline: &wgpu::ComputePipeline,
    bind: &wgpu::BindGroup,
    buf_out: &wgpu::Buffer,
    groups: u32,
    bytes: u64,
) -> Result<Vec<u32>> {
    let d = &gpu.device;
    let staging = buffer(
        d,
        "web/readback",
        bytes,
        wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
    );
    let mut enc = d.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("web/opcheck"),
    });
    {
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(entry),
            timestamp_writes: None,
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(groups, 1, 1);
    }
    enc.copy_buffer_to_buffer(buf_out, 0, &staging, 0, bytes);
    gpu.queue.submit([enc.finish()]);
    read(gpu, &staging).await
}

/// Maps `staging` and copies its words out.
///
/// The map callback reports through a oneshot channel. In the browser it runs from the
/// event loop once `GPUBuffer.mapAsync` resolves, so awaiting the channel yields to the
/// loop; natively nothing runs it but `Device::poll`, which is called here (blocking).
async fn read(gpu: &BrowserGpu, staging: &wgpu::Buffer) -> Result<Vec<u32>> {
    let (tx, rx) = futures_intrusive::channel::shared::oneshot_channel();
    staging.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send(r);
    });
    #[cfg(not(target_arch = "wasm32"))]
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| WebError::Lost(e.to_string()))?;
    #[cfg(target_arch = "wasm32")]
    let _ = gpu;
    rx.receive()
        .await
        .ok_or_else(|| WebError::Lost("map callback dropped".into()))??;
    let words = {
        let view = staging
            .get_mapped_range(..)
            .map_err(|e| WebError::Lost(e.to_string()))?;
        bytemuck::cast_slice::<u8, u32>(&view).to_vec()
    };
    staging.unmap();
    Ok(words)
}

fn buffer(d: &wgpu::Device, label: &str, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    d.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage,
        mapped_at_creation: false,
    })
}

fn entry_of(binding: u32, buf: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: buf.as_entire_binding(),
    }
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}
