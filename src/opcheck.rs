//! Running the per-operation test kernels (`test_{fq,fr}_*`, `test_curve_*`, `test_fq2_*`) on a
//! device, so the WGSL field and curve arithmetic can be compared with arkworks one operation
//! at a time (the GPU parity tests in `tests/gpu.rs` and `tests/fq2.rs` do).
//!
//! Layout (see `shaders/test_field.wgsl` and `shaders/test_curve.wgsl`): a field element
//! is 8 words, arkworks' four 64-bit limbs split into 32-bit words, least significant
//! first; most operations take and give Montgomery form, except `to_mont` (canonical in,
//! Montgomery out) and `from_mont` (the reverse). `eq` writes 1 or 0 in word 0. An affine
//! point is 16 words (x then y, Montgomery), with (0, 0) the point at infinity; curve
//! results come back in affine form, `on_curve` writes 1 or 0 in word 0.
//!
//! ```no_run
//! use wgpu_msm::opcheck::{self, Field};
//! use wgpu_msm::msm::encode::field_words;
//! let dev = &wgpu_msm::Device::all()?[0];
//! let (a, b) = (ark_bn254::Fq::from(3u64), ark_bn254::Fq::from(5u64));
//! let out = opcheck::field_op(dev, wgpu_msm::MulPath::Portable32, Field::Fq, "mul", &[field_words(&a)], &[field_words(&b)])?;
//! assert_eq!(out[0], field_words(&(a * b)));
//! # Ok::<(), wgpu_msm::Error>(())
//! ```

// The operations themselves block on the readback: native only (see the web crate for
// the same kernels driven from a browser).
#![cfg_attr(target_arch = "wasm32", allow(unused_imports))]
use crate::config::{Arithmetic, MulPath};
use crate::curve::GroupId;
use crate::device::gpu;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::msm::encode::{self, field_words};
use crate::shader::{ShaderKind, CURVE_TEST_OPS, FIELD_TEST_OPS, FQ2_TEST_OPS};
use ark_bn254::G1Affine;
use ark_ec::AffineRepr as _;

/// Words of one field element.
pub const FIELD_WORDS: usize = 8;
/// Words of one affine point.
pub const AFFINE_WORDS: usize = 16;
/// Invocations per workgroup of every test kernel.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
const WORKGROUP: u64 = 64;

/// Which field a field kernel works in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The base field (coordinates), `ark_bn254::Fq`.
    Fq,
    /// The scalar field, `ark_bn254::Fr`.
    Fr,
}

impl Field {
    /// The kernel prefix: `fq` or `fr`.
    pub fn name(self) -> &'static str {
        match self {
            Field::Fq => "fq",
            Field::Fr => "fr",
        }
    }
}

/// The 16 words of an affine point as the test kernels read it: Montgomery x then y, and
/// (0, 0) for infinity. Unlike the MSM upload this does not reject a non-infinity point
/// stored as (0, 0), and it encodes points off the curve as they are.
pub fn affine_words(p: &G1Affine) -> [u32; AFFINE_WORDS] {
    let mut w = [0u32; AFFINE_WORDS];
    if !p.is_zero() {
        w[..FIELD_WORDS].copy_from_slice(&field_words(&p.x));
        w[FIELD_WORDS..].copy_from_slice(&field_words(&p.y));
    }
    w
}

/// Runs `test_{field}_{op}` on `a` (and `b`) element-wise and returns its output words.
///
/// `b` is the second operand of binary operations; it may be empty (read as zeros) for
/// unary ones, otherwise it must have `a`'s length.
///
/// # Errors
/// [`Error::InvalidConfig`] for an unknown `op` or `Wide64` on a device without
/// SHADER_INT64; [`Error::LengthMismatch`] when `b` is neither empty nor as long as `a`;
/// [`Error::LimitExceeded`] beyond one dispatch; shader and GPU errors as values.
#[cfg(not(target_arch = "wasm32"))]
pub fn field_op(
    dev: &Device,
    path: MulPath,
    field: Field,
    op: &str,
    a: &[[u32; FIELD_WORDS]],
    b: &[[u32; FIELD_WORDS]],
) -> Result<Vec<[u32; FIELD_WORDS]>> {
    if !FIELD_TEST_OPS.contains(&op) {
        return Err(Error::InvalidConfig(format!(
            "no field test kernel `{op}` (have {FIELD_TEST_OPS:?})"
        )));
    }
    let entry = format!("test_{}_{op}", field.name());
    let out = run(
        dev,
        GroupId::Bn254G1,
        path,
        ShaderKind::TestField,
        &entry,
        a.as_flattened(),
        b.as_flattened(),
        a.len(),
        b.len(),
        FIELD_WORDS,
    )?;
    Ok(out
        .chunks_exact(FIELD_WORDS)
        .map(|c| c.try_into().expect("8 words"))
        .collect())
}

/// Runs `test_curve_{op}` on the points `a` (and operand words `b`) and returns the raw
/// 16-word results: affine points, or the 1/0 flag in word 0 for `on_curve`.
///
/// `b` holds the second point of `madd` / `add` (see [`affine_words`]) or, for
/// `mul_small`, the multiplier in word 0; it may be empty (read as zeros) for unary
/// operations, otherwise it must have `a`'s length.
///
/// # Errors
/// As [`field_op`].
#[cfg(not(target_arch = "wasm32"))]
pub fn curve_op_words(
    dev: &Device,
    path: MulPath,
    op: &str,
    a: &[[u32; AFFINE_WORDS]],
    b: &[[u32; AFFINE_WORDS]],
) -> Result<Vec<[u32; AFFINE_WORDS]>> {
    if !CURVE_TEST_OPS.contains(&op) {
        return Err(Error::InvalidConfig(format!(
            "no curve test kernel `{op}` (have {CURVE_TEST_OPS:?})"
        )));
    }
    let entry = format!("test_curve_{op}");
    let out = run(
        dev,
        GroupId::Bn254G1,
        path,
        ShaderKind::TestCurve,
        &entry,
        a.as_flattened(),
        b.as_flattened(),
        a.len(),
        b.len(),
        AFFINE_WORDS,
    )?;
    Ok(out
        .chunks_exact(AFFINE_WORDS)
        .map(|c| c.try_into().expect("16 words"))
        .collect())
}

/// [`curve_op_words`] for arkworks points, with the results read back as affine points
/// ((0, 0) becomes infinity; coordinates are not checked to be on the curve).
///
/// # Errors
/// As [`field_op`].
#[cfg(not(target_arch = "wasm32"))]
pub fn curve_op(
    dev: &Device,
    path: MulPath,
    op: &str,
    a: &[G1Affine],
    b: &[[u32; AFFINE_WORDS]],
) -> Result<Vec<G1Affine>> {
    let a: Vec<_> = a.iter().map(affine_words).collect();
    Ok(curve_op_words(dev, path, op, &a, b)?
        .iter()
        .map(|w| encode::read_affine(w))
        .collect())
}

/// Runs the Fq2 kernel `test_fq2_{op}` of `group` (Fq2 = Fq\[u\] / (u^2 + 1)) over `a`
/// (and `b`, same length, or empty for unary operations). An element is c0 then c1, each
/// the group's `fq_words` 32-bit words of its Montgomery form, so `a` and `b` hold
/// `2 * fq_words` words per element.
///
/// # Errors
/// [`Error::InvalidConfig`] for an unknown operation or a word count that is not a
/// whole number of elements; otherwise as [`field_op`].
#[cfg(not(target_arch = "wasm32"))]
pub fn fq2_op(
    dev: &Device,
    group: GroupId,
    path: MulPath,
    op: &str,
    a: &[u32],
    b: &[u32],
) -> Result<Vec<u32>> {
    if !FQ2_TEST_OPS.contains(&op) {
        return Err(Error::InvalidConfig(format!("no Fq2 test kernel {op:?}")));
    }
    let stride = 2 * group.fq_words() as usize;
    if !a.len().is_multiple_of(stride) || !b.len().is_multiple_of(stride) {
        return Err(Error::InvalidConfig(format!(
            "Fq2 operands of {stride} words each"
        )));
    }
    let entry = format!("test_fq2_{op}");
    let (n, nb) = (a.len() / stride, b.len() / stride);
    run(
        dev,
        group,
        path,
        ShaderKind::TestFq2,
        &entry,
        a,
        b,
        n,
        nb,
        stride,
    )
}

/// Runs the G2 curve kernel `test_g2_{op}` of `group` (the curve formulas over Fq2; the
/// operations of [`curve_op_words`]) over `a` (and `b`). A point is x.c0, x.c1, y.c0,
/// y.c1, each the group's `fq_words` words of its Montgomery form, all zero for
/// infinity; results come back in that form.
///
/// # Errors
/// As [`fq2_op`].
#[cfg(not(target_arch = "wasm32"))]
pub fn g2_op(
    dev: &Device,
    group: GroupId,
    path: MulPath,
    op: &str,
    a: &[u32],
    b: &[u32],
) -> Result<Vec<u32>> {
    if !CURVE_TEST_OPS.contains(&op) {
        return Err(Error::InvalidConfig(format!("no G2 test kernel {op:?}")));
    }
    let stride = 4 * group.fq_words() as usize;
    if !a.len().is_multiple_of(stride) || !b.len().is_multiple_of(stride) {
        return Err(Error::InvalidConfig(format!(
            "G2 points of {stride} words each"
        )));
    }
    let entry = format!("test_g2_{op}");
    let (n, nb) = (a.len() / stride, b.len() / stride);
    run(
        dev,
        group,
        path,
        ShaderKind::TestG2,
        &entry,
        a,
        b,
        n,
        nb,
        stride,
    )
}

/// Uploads the operands, dispatches `entry` over `n` elements of `stride` words and reads
/// the output back.
#[allow(clippy::too_many_arguments)]
#[cfg(not(target_arch = "wasm32"))]
fn run(
    dev: &Device,
    group: GroupId,
    path: MulPath,
    kind: ShaderKind,
    entry: &str,
    a: &[u32],
    b: &[u32],
    n: usize,
    nb: usize,
    stride: usize,
) -> Result<Vec<u32>> {
    if nb != 0 && nb != n {
        return Err(Error::LengthMismatch {
            bases: n,
            scalars: nb,
        });
    }
    // A forced path the device cannot run is a configuration error, as for the MSM.
    let forced = match path {
        MulPath::Wide64 => Arithmetic::Wide64,
        MulPath::Portable32 => Arithmetic::Portable32,
    };
    dev.resolve_arithmetic(forced)?;
    if n == 0 {
        return Ok(Vec::new());
    }
    let groups = (n as u64).div_ceil(WORKGROUP);
    let max_groups = u64::from(dev.info().max_workgroups_per_dimension);
    if groups > max_groups {
        return Err(Error::LimitExceeded {
            what: "test kernel elements",
            requested: n as u64,
            max: max_groups * WORKGROUP,
        });
    }
    let d = &dev.inner.device;
    let queue = &dev.inner.queue;
    let kernels = dev.msm_state()?.kernels(dev, group, kind, path)?;
    let bytes = 4 * (n * stride) as u64;
    let buf_a = gpu::create_buffer(d, "opcheck/a", bytes, gpu::STORAGE)?;
    let buf_b = gpu::create_buffer(d, "opcheck/b", bytes, gpu::STORAGE)?;
    // The kernels count elements from the output's length, so it must be exact.
    let buf_out = gpu::create_buffer(d, "opcheck/out", bytes, gpu::STORAGE)?;
    let staging = gpu::create_buffer(
        d,
        "opcheck/readback",
        bytes,
        wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
    )?;
    queue.write_buffer(&buf_a, 0, bytemuck::cast_slice(a));
    let zeros;
    let b = if nb == 0 {
        zeros = vec![0u32; n * stride];
        &zeros[..]
    } else {
        b
    };
    queue.write_buffer(&buf_b, 0, bytemuck::cast_slice(b));
    let bind = gpu::bind_whole(d, &kernels.layout, "opcheck", &[&buf_a, &buf_b, &buf_out])?;
    let mut enc = d.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("opcheck"),
    });
    {
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(entry),
            timestamp_writes: None,
        });
        pass.set_pipeline(kernels.get(entry));
        pass.set_bind_group(0, &bind, &[]);
        pass.dispatch_workgroups(groups as u32, 1, 1);
    }
    enc.copy_buffer_to_buffer(&buf_out, 0, &staging, 0, bytes);
    gpu::checked(d, entry, || queue.submit([enc.finish()]))?;
    let mut words = pollster::block_on(gpu::read_words(dev, &staging))?;
    words.truncate(n * stride);
    Ok(words)
}
