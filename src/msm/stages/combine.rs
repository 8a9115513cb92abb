//! The host's last step: every MSM's window sums, read back from the device (each
//! window's bit sums and total), weighted by powers of two and added.

use crate::curve::Group;
use crate::msm::plan::Plan;
use ark_ec::short_weierstrass::Projective;
use ark_ff::Zero;

/// Every MSM's result from the read-back words (its window sums, written by its last
/// pass): all its windows' points at once, each weighted by 2^(its window's offset +
/// its weight in the window) (`shader::stages::window_sum_weights`), by one Horner's
/// rule over the weights (as many doublings as the top weight, instead of a window's
/// own and then the windows' joining). A single MSM is combined on the calling thread
/// (a few hundred additions and doublings: less than waking a pool); a batch's MSMs on
/// rayon's pool, a thread each (in a browser, no threads, all on the calling thread).
pub(crate) fn combine<C: Group>(
    out: &[u32],
    plan: &Plan,
    has_passes: &[bool],
) -> Vec<Projective<C>> {
    use crate::msm::encode::{read_xyzz_in, weighted_sum};
    #[cfg(not(target_arch = "wasm32"))]
    use rayon::prelude::*;
    let windows = plan.num_windows as usize;
    let weights = plan.window_sum_weights();
    let point_words = 4 * C::ID.point_element_words() as usize;
    let per_msm = weights.len() * point_words * windows;
    // Window w of the plan is window first_window + w of the scalar (the windows below
    // it count as zero), at bit `offsets[w]` of the scalar.
    let below = plan.first_window;
    let offsets: Vec<u32> = (0..windows as u32)
        .map(|w| (0..below + w).map(|v| plan.window_width(v)).sum())
        .collect();
    // MSM m's terms: window w's points at w * weights.len().
    let one = |m: usize| match has_passes[m] {
        true => weighted_sum((0..windows).flat_map(|w| {
            let at = m * per_msm + point_words * w * weights.len();
            let (out, offset) = (&out, offsets[w]);
            weights.iter().enumerate().filter_map(move |(i, k)| {
                k.map(|k| (offset + k, read_xyzz_in::<C>(&out[at + point_words * i..])))
            })
        })),
        // No scalars, no pass: nothing was written for it (the pooled readback holds an
        // earlier job's words there).
        false => Projective::<C>::zero(),
    };
    if has_passes.len() == 1 {
        return vec![one(0)];
    }
    #[cfg(not(target_arch = "wasm32"))]
    return (0..has_passes.len()).into_par_iter().map(one).collect();
    #[cfg(target_arch = "wasm32")]
    (0..has_passes.len()).map(one).collect()
}
