//! The host's last step: every MSM's window sums, read back from the device (each
//! window's bit sums and total), weighted by powers of two and added.

use crate::curve::Group;
use crate::msm::plan::Plan;
use ark_ec::short_weierstrass::Projective;
use ark_ff::Zero;

/// Every MSM's result from the read-back words (its window sums, written by its last
/// pass): each window's points weighted by powers of two
/// (`shader::stages::window_sum_weights`), then the windows joined. A batch's MSMs are
/// combined on rayon's pool, a thread each; a single MSM's windows are summed on the
/// pool (a window's dozen terms cost more than waking it). In a browser (no threads)
/// all of them on the calling thread.
pub(crate) fn combine<C: Group>(
    out: &[u32],
    plan: &Plan,
    has_passes: &[bool],
) -> Vec<Projective<C>> {
    use crate::msm::encode::{combine_windows_by, read_xyzz_in, weighted_sum};
    #[cfg(not(target_arch = "wasm32"))]
    use rayon::prelude::*;
    let windows = plan.num_windows as usize;
    let weights = plan.window_sum_weights();
    let point_words = 4 * C::ELEMENT_WORDS;
    let per_msm = weights.len() * point_words * windows;
    // Window w of the plan is window first_window + w of the scalar: the windows below
    // it count as zero.
    let below = plan.first_window as usize;
    let width = |w: usize| plan.window_width(w as u32);
    // Window w's sum in MSM m: its points at w * weights.len().
    let window_sum = |m: usize, w: usize| match w.checked_sub(below) {
        Some(w) => {
            let at = m * per_msm + point_words * w * weights.len();
            weighted_sum(weights.iter().enumerate().filter_map(|(i, k)| {
                k.map(|k| (k, read_xyzz_in::<C>(&out[at + point_words * i..])))
            }))
        }
        None => Projective::<C>::zero(),
    };
    // No scalars, no pass: nothing was written for it (the pooled readback holds an
    // earlier job's words there).
    let one = |m: usize| match has_passes[m] {
        true => {
            let sums: Vec<_> = (0..below + windows).map(|w| window_sum(m, w)).collect();
            combine_windows_by(&sums, width)
        }
        false => Projective::<C>::zero(),
    };
    if has_passes.len() == 1 {
        #[cfg(not(target_arch = "wasm32"))]
        if has_passes[0] {
            let sums: Vec<_> = (0..below + windows)
                .into_par_iter()
                .map(|w| window_sum(0, w))
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
