//! The working buffers of one pass shape: digits, bucket counts and offsets, sorted
//! entries, per-pass scratch, the bucket totals, and the fold steps' uniforms and
//! dispatch sizes. Pooled per device by plan (see `msm/state.rs`).

use crate::device::gpu;
use crate::error::Result;
use crate::msm::memory::pool::Pooled;
use crate::msm::plan::Plan;

/// Working buffers of one pass shape (inputs live in an [`Arena`]).
pub(crate) struct Working {
    pub(crate) plan: Plan,
    pub(crate) digits: wgpu::Buffer,
    pub(crate) counts: wgpu::Buffer,
    pub(crate) offsets: wgpu::Buffer,
    pub(crate) sorted: wgpu::Buffer,
    pub(crate) scratch: wgpu::Buffer,
    /// Bucket totals over the passes of one MSM (cleared by its first pass).
    pub(crate) totals: wgpu::Buffer,
    /// Fold step numbers 0..FOLD_STEPS, one per 256-byte slot (bound with dynamic offsets;
    /// the reduction's tree stages take their numbers from the same slots).
    pub(crate) fold_steps: wgpu::Buffer,
    /// Dispatch arguments of the fold steps, three words each, written on the device
    /// (msm_fold_args.wgsl) where the device takes indirect dispatches.
    pub(crate) fold_dispatch: wgpu::Buffer,
}

/// Most fold steps (chunks per window < 2^FOLD_STEPS).
pub(crate) const FOLD_STEPS: u32 = 32;
/// Bytes between fold-step slots (the uniform-offset alignment).
pub(crate) const FOLD_STRIDE: u64 = 256;
/// Bytes of one fold step's indirect dispatch arguments (x, y, z).
pub(crate) const FOLD_DISPATCH_BYTES: u64 = 12;

impl Pooled for Working {
    type Key = Plan;
    fn key(&self) -> Plan {
        self.plan
    }
}

impl Working {
    /// The working buffers of `plan`, newly allocated.
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue, plan: &Plan) -> Result<Working> {
        let mk = |label: &str, size: u64| gpu::create_buffer(device, label, size, gpu::STORAGE);
        Ok(Working {
            plan: *plan,
            digits: mk("msm/digits", plan.digits_bytes())?,
            counts: mk("msm/counts", plan.counts_bytes())?,
            offsets: mk("msm/offsets", plan.offsets_bytes())?,
            sorted: mk("msm/sorted", plan.entries_bytes())?,
            scratch: mk("msm/scratch", plan.scratch_bytes())?,
            totals: mk("msm/totals", plan.totals_bytes())?,
            fold_dispatch: gpu::create_buffer(
                device,
                "msm/fold-dispatch",
                FOLD_DISPATCH_BYTES * u64::from(FOLD_STEPS),
                gpu::STORAGE | wgpu::BufferUsages::INDIRECT,
            )?,
            fold_steps: {
                let b = gpu::create_buffer(
                    device,
                    "msm/fold-steps",
                    FOLD_STRIDE * u64::from(FOLD_STEPS),
                    wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                )?;
                let mut words = vec![0u32; (FOLD_STRIDE / 4) as usize * FOLD_STEPS as usize];
                for s in 0..FOLD_STEPS as usize {
                    words[s * (FOLD_STRIDE / 4) as usize] = s as u32;
                }
                queue.write_buffer(&b, 0, bytemuck::cast_slice(&words));
                b
            },
        })
    }
}
