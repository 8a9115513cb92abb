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
    let parts = plan.reduce_parts() as usize;
    let point_words = 4 * C::ELEMENT_WORDS;
    // X of every part of every window, then V, Y and T (msm_reduce.wgsl's
    // `reduce_windows`), part v of window w at w * parts + v.
    let per_msm = crate::shader::stages::REDUCE_SUMS as usize * point_words * windows * parts;
    let weights = plan.window_weights_log2();
    let one = |m: usize| {
        if !has_passes[m] {
            // No scalars, no pass: nothing was written for it (the pooled readback
            // holds an earlier job's words there).
            return Projective::<C>::zero();
        }
        let words = &out[m * per_msm..];
        let read = |k: usize, w: usize, v: usize| {
            let i = (k * windows + w) * parts + v;
            crate::msm::encode::read_xyzz_in::<C>(&words[point_words * i..])
        };
        // Window w of the plan is window first_window + w of the scalar: the windows
        // below it count as zero. X, V and Y of a window are its parts' sums; its fourth
        // term is sum_v v T_v (the parts' totals weighted by their first buckets, in
        // units of a part), by suffix sums.
        let below = plan.first_window as usize;
        let mut sums = vec![vec![Projective::<C>::zero(); below + windows]; 4];
        for w in 0..windows {
            for (k, sum) in sums.iter_mut().take(3).enumerate() {
                sum[below + w] = (0..parts).map(|v| read(k, w, v)).sum();
            }
            let mut suffix = Projective::<C>::zero();
            for v in (1..parts).rev() {
                suffix += read(3, w, v);
                sums[3][below + w] += suffix;
            }
        }
        crate::msm::encode::combine_window_sums(
            [&sums[0], &sums[1], &sums[2], &sums[3]],
            |w| plan.window_width(w as u32),
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
