//! The host's last step: every MSM's window sums, read back from the device, weighted
//! by powers of two and added (`encode::combine_window_pairs`).

use crate::curve::Group;
use crate::msm::plan::Plan;
use ark_ec::short_weierstrass::Projective;
use ark_ff::Zero;

/// Every MSM's result from the read-back words (its window sums, written by its last
/// pass): the windows weighted by powers of two. A batch's MSMs are combined on rayon's
/// pool; a single one on the calling thread (no wake-up of the pool). In a browser
/// (no threads) all of them on the calling thread.
pub(crate) fn combine<C: Group>(
    out: &[u32],
    plan: &Plan,
    has_passes: &[bool],
) -> Vec<Projective<C>> {
    #[cfg(not(target_arch = "wasm32"))]
    use rayon::prelude::*;
    let windows = plan.num_windows as usize;
    let point_words = 4 * C::ELEMENT_WORDS;
    // Z_w for every window, then Y_w (msm_reduce.wgsl's `reduce_windows`).
    let per_msm = 2 * point_words * windows;
    let weight = plan.window_weight_log2();
    let one = |m: usize| {
        if !has_passes[m] {
            // No scalars, no pass: nothing was written for it (the pooled readback
            // holds an earlier job's words there).
            return Projective::<C>::zero();
        }
        let words = &out[m * per_msm..];
        // Window w of the plan is window first_window + w of the scalar: the windows
        // below it count as zero.
        let below = plan.first_window as usize;
        let read = |i: usize| crate::msm::encode::read_xyzz_in::<C>(&words[point_words * i..]);
        let mut z = vec![Projective::<C>::zero(); below];
        let mut y = z.clone();
        z.extend((0..windows).map(read));
        y.extend((windows..2 * windows).map(read));
        crate::msm::encode::combine_window_pairs(&z, &y, plan.window_bits, weight)
    };
    if has_passes.len() == 1 {
        return vec![one(0)];
    }
    #[cfg(not(target_arch = "wasm32"))]
    return (0..has_passes.len()).into_par_iter().map(one).collect();
    #[cfg(target_arch = "wasm32")]
    (0..has_passes.len()).map(one).collect()
}
