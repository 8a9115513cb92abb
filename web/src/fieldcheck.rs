//! One of the crate's per-operation test kernels, `test_fq_mul` on the portable 32-bit
//! path, run on the browser's GPU and compared with arkworks in WebAssembly.
//!
//! The WGSL comes from the core crate's public shader builder
//! ([`wgpu_msm::shader::source_with`]), the operands and results are the core crate's
//! word layout ([`wgpu_msm::msm::encode::field_words`]: Montgomery form, eight 32-bit
//! words, least significant first); only the dispatch is written here, with wgpu
//! directly and without blocking: the readback awaits `map_async` through a channel that
//! the browser's event loop completes.

use crate::compile;
use crate::error::{Result, WebError};
use crate::gpu::BrowserGpu;
use ark_bn254::Fq;
use ark_std::rand::{rngs::StdRng, SeedableRng};
use ark_std::UniformRand;
use web_time::Instant;
use wgpu_msm::msm::encode::field_words;
use wgpu_msm::shader::ShaderKind;

/// The kernel's entry point.
const ENTRY: &str = "test_fq_mul";
/// `@workgroup_size` of the test kernels (`shaders/test_field.wgsl`).
const WORKGROUP: u32 = 64;
/// Words of one field element.
const WORDS: usize = 8;

/// The outcome and timings of one [`field_mul`] run.
#[derive(Clone, Debug)]
pub struct FieldMulReport {
    /// Pairs multiplied.
    pub n: usize,
    /// The seed of the random operands.
    pub seed: u64,
    /// Products that differ from arkworks'.
    pub mismatches: usize,
    /// The first differing index, if any.
    pub first_mismatch: Option<usize>,
    /// Milliseconds to create the shader module and have the browser report its
    /// compilation messages (parsing and validation of the whole module).
    pub module_ms: f64,
    /// Milliseconds to create the pipeline and have its validation scope answer.
    pub pipeline_ms: f64,
    /// Milliseconds from the first submit to the mapped result: includes the driver's
    /// compilation of the pipeline where the browser defers it (Chromium does).
    pub first_run_ms: f64,
    /// Milliseconds of a second, identical dispatch and readback (compiled already).
    pub second_run_ms: f64,
    /// Milliseconds of the same products with arkworks on the CPU (in wasm, in the page).
    pub cpu_ms: f64,
}

impl std::fmt::Display for FieldMulReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{ENTRY} x {} (seed {}): {} mismatches against arkworks; module {:.1} ms \
             (all field test kernels), pipeline {:.1} ms, first run {:.1} ms, second run {:.1} ms, \
             arkworks {:.2} ms",
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
/// [`WebError::Invalid`] for `n == 0` or more pairs than one dispatch holds;
/// [`WebError::Shader`] when the module or pipeline fails; readback errors as values.
pub async fn field_mul(gpu: &BrowserGpu, n: usize, seed: u64) -> Result<FieldMulReport> {
    let groups = u32::try_from(n.div_ceil(WORKGROUP as usize)).unwrap_or(u32::MAX);
    let max_groups = gpu.device.limits().max_compute_workgroups_per_dimension;
    if n == 0 || groups > max_groups {
        return Err(WebError::Invalid(format!(
            "field_mul needs 1..={} pairs, got {n}",
            u64::from(max_groups) * u64::from(WORKGROUP)
        )));
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let a: Vec<Fq> = (0..n).map(|_| Fq::rand(&mut rng)).collect();
    let b: Vec<Fq> = (0..n).map(|_| Fq::rand(&mut rng)).collect();

    let t = Instant::now();
    let expected: Vec<[u32; WORDS]> = a
        .iter()
        .zip(&b)
        .map(|(x, y)| field_words(&(*x * *y)))
        .collect();
    let cpu_ms = ms(t);

    let d = &gpu.device;
    let (module, module_ms) = compile::module(gpu, ShaderKind::TestField).await?;
    let (pipeline, pipeline_ms) = compile::pipeline(gpu, &module, ENTRY).await?;

    let words = |v: &[Fq]| -> Vec<u32> { v.iter().flat_map(field_words).collect() };
    let bytes = (n * WORDS * 4) as u64;
    let storage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
    let buf_a = buffer(d, "web/a", bytes, storage);
    let buf_b = buffer(d, "web/b", bytes, storage);
    // The kernel counts elements from the output's length, so it is exact.
    let buf_out = buffer(d, "web/out", bytes, storage);
    gpu.queue
        .write_buffer(&buf_a, 0, bytemuck::cast_slice(&words(&a)));
    gpu.queue
        .write_buffer(&buf_b, 0, bytemuck::cast_slice(&words(&b)));
    let bind = d.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("web/test_field"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[entry(0, &buf_a), entry(1, &buf_b), entry(2, &buf_out)],
    });

    let t = Instant::now();
    let got = dispatch(gpu, &pipeline, &bind, &buf_out, groups, bytes).await?;
    let first_run_ms = ms(t);
    let t = Instant::now();
    let again = dispatch(gpu, &pipeline, &bind, &buf_out, groups, bytes).await?;
    let second_run_ms = ms(t);

    let products = got.chunks_exact(WORDS).chain(again.chunks_exact(WORDS));
    let wanted = expected.iter().chain(&expected);
    let bad: Vec<usize> = products
        .zip(wanted)
        .enumerate()
        .filter(|(_, (g, e))| *g != &e[..])
        .map(|(i, _)| i % n)
        .collect();
    Ok(FieldMulReport {
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
        label: Some("web/test_field"),
    });
    {
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(ENTRY),
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

fn entry(binding: u32, buf: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: buf.as_entire_binding(),
    }
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}
