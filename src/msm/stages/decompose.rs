//! Host side of `msm_decompose.wgsl`: one thread a point splits its scalar (or its
//! two GLV halves) into signed window digits and counts each bucket's entries.

use super::{dispatch, grid, Params};
use crate::device::pipeline::Kernels;

/// Records the decompose kernel: a thread per point of the pass.
pub(super) fn record(
    pass: &mut wgpu::ComputePass<'_>,
    k: &Kernels,
    steps: &wgpu::BindGroup,
    p: &Params,
    max_x: u32,
) {
    dispatch(
        pass,
        k,
        steps,
        "decompose",
        grid(u64::from(p.points), max_x),
    );
}
