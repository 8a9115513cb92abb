//! The host's last step: every MSM's window sums, read back from the device (each
//! window's bit sums and total), weighted by powers of two and added.

use crate::curve::Group;
use crate::msm::plan::Plan;
use ark_ec::short_weierstrass::Projective;
use ark_ff::Zero;

/// Every MSM's result from the read-back words (its window sums, written by its last
/// pass): the windows weighted by powers of two. A batch's MSMs are combined on rayon's
/// pool, each on one thread, its doublings shared between windows
/// (`encode::combine_bit_sums`); a single MSM's windows are summed apart on the pool,
/// then joined (a window's dozen terms cost more than waking the pool, in every group:
/// docs/benchmark-log.md, v52). In a browser (no threads) all of them on the calling
/// thread.
pub(crate) fn combine<C: Group>(
    out: &[u32],
    plan: &Plan,
    has_passes: &[bool],
) -> Vec<Projective<C>> {
    use crate::msm::encode::{
        combine_bit_sums, combine_windows_by, read_xyzz_in, window_sum_from_bits,
    };
    #[cfg(not(target_arch = "wasm32"))]
    use rayon::prelude::*;
    let windows = plan.num_windows as usize;
    let per_window = plan.window_sum_points() as usize;
    let point_words = 4 * C::ELEMENT_WORDS;
    // Window w's sums at w * per_window (msm_reduce.wgsl): its bit sums, then its total
    // (weight 1); or, where buckets are walked in segments of 2^shift, its segments'
    // sum (weight 1), then the bit sums of the segments' indices (weights 2^shift on),
    // then their total (unused).
    let shift = crate::shader::stages::reduce_seg_log2(plan.num_buckets);
    let walked = usize::from(shift > 0);
    let levels = (per_window - 1 - walked) as u32;
    let slot = |k: u32| match (walked, k == levels) {
        (0, _) => k as usize,
        (_, true) => 0,
        (_, false) => k as usize + 1,
    };
    let per_msm = per_window * point_words * windows;
    // Window w of the plan is window first_window + w of the scalar: the windows below
    // it count as zero.
    let below = plan.first_window as usize;
    let width = |w: usize| plan.window_width(w as u32);
    let term = |m: usize, w: usize, k: u32| match w.checked_sub(below) {
        Some(w) => {
            read_xyzz_in::<C>(&out[m * per_msm + point_words * (w * per_window + slot(k))..])
        }
        None => Projective::<C>::zero(),
    };
    // No scalars, no pass: nothing was written for it (the pooled readback holds an
    // earlier job's words there).
    let one = |m: usize| match has_passes[m] {
        true => combine_bit_sums(below + windows, (levels, shift), width, |w, k| {
            term(m, w, k)
        }),
        false => Projective::<C>::zero(),
    };
    if has_passes.len() == 1 {
        #[cfg(not(target_arch = "wasm32"))]
        if has_passes[0] {
            let sums: Vec<Projective<C>> = (0..below + windows)
                .into_par_iter()
                .map(|w| window_sum_from_bits((levels, shift), |k| term(0, w, k)))
                .collect();
            return vec![combine_windows_by(&sums, width)];
        }
        return vec![one(0)];
    }
    #[cfg(not(target_arch = "wasm32"))]
    return (0..has_passes.len()).into_par_iter().map(one).collect();
    #[cfg(target_arch = "wasm32")]
    (0..has_passes.len()).map(one).collect()
}
