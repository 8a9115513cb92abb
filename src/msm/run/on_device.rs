//! MSMs whose bases and scalars are both resident on the device: nothing to upload but
//! a parameter block a pass, so nothing to overlap, and the MSM runs in as few passes
//! as the device's limits and the budget allow, each pass reading its range of the
//! scalars in place.

use crate::config::MsmConfig;
use crate::curve::Group;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::msm::memory::arena::{Arena, Input};
use crate::msm::plan::{self, Feed};
use crate::msm::resident::bases::DeviceBases;
use crate::msm::resident::scalars::DeviceScalars;
use crate::msm::run::batch::{self, Pass};
use crate::msm::run::job::{Job, PassInputs};
use ark_ec::short_weierstrass::Projective;
use ark_ff::Zero;

/// Cuts `passes` (within base segments) again at the ends of scalar segments of
/// `per` scalars.
fn split_at_segments(passes: &[Pass], per: usize) -> Vec<Pass> {
    let mut out = Vec::with_capacity(passes.len());
    for p in passes {
        let (mut first, end) = (p.first, p.first + p.n);
        while first < end {
            let stop = end.min((first / per + 1) * per);
            out.push(Pass {
                first,
                n: stop - first,
                ..*p
            });
            first = stop;
        }
    }
    out
}

/// Runs `sum_i scalars[i] * bases[i]` over the first `scalars.len()` bases.
pub(crate) async fn run<C: Group>(
    dev: &Device,
    bases: &DeviceBases<C>,
    scalars: &DeviceScalars<C>,
    cfg: &MsmConfig,
) -> Result<Projective<C>> {
    dev.check_owner("DeviceBases", bases.device_uid())?;
    dev.check_owner("DeviceScalars", scalars.device_uid())?;
    if scalars.len() > bases.len() {
        return Err(Error::LengthMismatch {
            bases: bases.len(),
            scalars: scalars.len(),
        });
    }
    let n = scalars.len();
    if n == 0 {
        return Ok(Projective::<C>::zero());
    }
    let resident = bases.device_bytes() + scalars.device_bytes();
    let layout = plan::Layout::resident(C::ID, bases.expanded, cfg);
    let tuning = dev.tuning()?;
    let limits = dev.limits(&tuning, C::ID);
    let plan = plan::choose_for(C::ID, n, cfg, &limits, Feed::Params, resident, layout)?;
    let segments: Vec<_> = bases.segment_ranges().collect();
    let (cap, growth) = (plan.points as usize, tuning.pass_growth_pct);
    // Full passes first (no small first pass: nothing to overlap), so every pass starts
    // at a multiple of the capacity or of a segment, an aligned binding offset.
    let by_bases = batch::passes(&segments, &[n], |len| plan::pass_sizes(len, cap, 0, growth));
    let passes = split_at_segments(&by_bases, scalars.store.per);
    let arena = dev.msm_state()?.take_arena(
        &dev.inner.device,
        &dev.inner.queue,
        Arena::key_for(
            &plan,
            passes.len() as u64,
            Feed::Params,
            tuning.direct_uploads,
        ),
    )?;
    let job = Job::new(dev, cfg, plan, vec![0; passes.len()], 1, segments.len())?;
    let t = crate::time::Instant::now();
    let mut filled = std::time::Duration::ZERO;
    let inputs: Vec<Input<'_, C>> = passes
        .iter()
        .enumerate()
        .map(|(i, p)| Input::Params(job.params(i, p.n)))
        .collect();
    for (slot, &input) in inputs.iter().enumerate() {
        filled += arena.stage(dev, slot, 0, input).await?;
    }
    job.note_upload(t, filled, crate::time::Instant::now(), 0);
    let mut enc = job.encoder();
    for (slot, &input) in inputs.iter().enumerate() {
        arena.copy_staged(&mut enc, slot, 0, input)?;
    }
    for (slot, p) in passes.iter().enumerate() {
        let bound = PassInputs {
            params: arena.params(slot),
            bases: bases.binding(p.first, p.n),
            scalars: scalars.binding(p.first, p.n),
        };
        if let Some(first) = job.encode_whole_pass(&mut enc, slot, p.n, bound, slot == 0)? {
            job.submit_commands(first)?;
        }
    }
    bases.copy_flags(&job, &mut enc);
    let index = job.submit_last(enc)?;
    for (slot, &input) in inputs.iter().enumerate() {
        arena.recycle(slot, 0, input, index.clone());
    }
    let out = job.finish::<C>().await?;
    drop(arena);
    bases.check_flags(&out.flags)?;
    out.results.into_iter().next().ok_or(Error::Cancelled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_split_at_scalar_segments() {
        let p = |first, n| Pass { set: 0, first, n };
        // Base segments of 8; scalar segments of 4 cut the first pass twice.
        let split = split_at_segments(&[p(0, 8), p(8, 3)], 4);
        let got: Vec<_> = split.iter().map(|q| (q.first / 8, q.first, q.n)).collect();
        assert_eq!(got, [(0, 0, 4), (0, 4, 4), (1, 8, 3)].to_vec());
        // Segments larger than the passes leave them whole.
        let whole = split_at_segments(&[p(0, 5), p(5, 2)], 1 << 20);
        assert_eq!(whole.len(), 2);
        assert_eq!((whole[1].first, whole[1].n), (5, 2));
    }
}
