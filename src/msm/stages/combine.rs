//! The host's last step: every MSM's window sums, read back from the device, weighted
//! by powers of two and added (`encode::combine_window_sums`).

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
    // X_w for every window, then V_w, then Y_w (msm_reduce.wgsl's `reduce_windows`).
    let per_msm = crate::shader::stages::REDUCE_SUMS as usize * point_words * windows;
    let weights = plan.window_weights_log2();
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
        let sums = |k: usize| {
            let mut v = vec![Projective::<C>::zero(); below];
            v.extend((k * windows..(k + 1) * windows).map(read));
            v
        };
        crate::msm::encode::combine_window_sums(
            [&sums(0), &sums(1), &sums(2)],
            plan.window_bits,
            weights,
        )
    };
    if has_passes.len() == 1 {
        return vec![one(0)];
    }
    #[cfg(not(target_arch = "wasm32"))]
    return (0..has_passes.len()).into_par_iter().map(one).collect();
    #[cfg(target_arch = "wasm32")]
    (0..has_passes.len()).map(one).collect()
}
