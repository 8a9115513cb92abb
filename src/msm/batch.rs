//! MSMs over resident bases, one or a batch of scalar sets, in as few submissions as
//! the input arena allows (one for a prover's usual batch): every set's scalars are
//! written into their own slot up front, every pass of every set is recorded into one
//! command encoder over the same working buffers (the device runs passes in order), and
//! all window sums come back in one readback. No host round trip between MSMs.

use super::arena::Arena;
use super::bases::DeviceBases;
use super::job::{self, Job, PassInputs};
use super::pass::Params;
use super::plan::{self, Feed, BASE_BYTES};
use crate::config::MsmConfig;
use crate::device::Device;
use crate::error::{Error, Result};
use ark_bn254::{Fr, G1Projective};
use ark_ff::Zero;

/// Largest input arena a job takes without a memory budget (bytes of scalar slots).
/// Larger batches go in several submissions, still with one readback.
const ARENA_MAX: u64 = 256 << 20;

/// One pass of a resident job: set `set`, segment `seg`, points `first..first + n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pass {
    set: usize,
    seg: usize,
    first: usize,
    n: usize,
}

/// The passes of every set: each set's prefix of the bases, cut at segment ends and
/// into passes of at most `cap` points.
fn passes(segments: &[(usize, usize, usize)], lens: &[usize], cap: usize) -> Vec<Pass> {
    let mut out = Vec::new();
    for (set, &len) in lens.iter().enumerate() {
        for &(seg, start, seg_len) in segments {
            let end = (start + seg_len).min(len);
            let mut first = start;
            while first < end {
                let n = (end - first).min(cap);
                out.push(Pass { set, seg, first, n });
                first += n;
            }
        }
    }
    out
}

/// Runs the MSMs `sum_i sets[k][i] * bases[i]` for every `k`.
pub(crate) async fn run(
    dev: &Device,
    bases: &DeviceBases,
    sets: &[&[Fr]],
    cfg: &MsmConfig,
) -> Result<Vec<G1Projective>> {
    dev.check_owner("DeviceBases", bases.device_uid)?;
    if let Some(long) = sets.iter().find(|s| s.len() > bases.len()) {
        return Err(Error::LengthMismatch {
            bases: bases.len(),
            scalars: long.len(),
        });
    }
    let n = sets.iter().map(|s| s.len()).max().unwrap_or(0);
    if n == 0 {
        return Ok(vec![G1Projective::zero(); sets.len()]);
    }
    let limits = dev.limits();
    let resident = BASE_BYTES * bases.len() as u64;
    let plan = plan::choose(n, cfg, &limits, Feed::Scalars, resident)?;
    let segments: Vec<_> = bases.segment_ranges().collect();
    let lens: Vec<usize> = sets.iter().map(|s| s.len()).collect();
    let passes = passes(&segments, &lens, plan.capacity as usize);

    // As many slots as the budget (after the bases and working buffers), the device's
    // largest buffer and ARENA_MAX allow, up to one per pass.
    let per_slot = plan.slot_bytes(Feed::Scalars);
    let room = match cfg.memory_budget {
        Some(b) => b.saturating_sub(resident + plan.working_bytes()),
        None => ARENA_MAX.max(per_slot),
    };
    let slots = (passes.len() as u64)
        .min(room / per_slot)
        .min(limits.max_buffer / (per_slot - plan::PARAMS_SLOT))
        .max(1);
    let state = &dev.inner.msm;
    let arena = state.take_arena(
        &dev.inner.device,
        Arena::key_for(&plan, slots, Feed::Scalars),
    )?;
    let owners = passes.iter().map(|p| p.set).collect();
    let mut job = Job::new(dev, cfg, plan, owners, sets.len(), segments.len())?;
    let queue = &dev.inner.queue;
    let groups = passes.chunks(arena.slots()).count();
    for (g, group) in passes.chunks(arena.slots()).enumerate() {
        // Written into staging memory now; the device copies them in at this group's
        // submission, after the previous group's passes have read their slots.
        let t = std::time::Instant::now();
        for (slot, p) in group.iter().enumerate() {
            let params = Params::new(job.plan(), p.n as u32);
            let scalars = &sets[p.set][p.first..p.first + p.n];
            arena.write(queue, slot, &params, scalars, None)?;
        }
        job.upload_ms += t.elapsed().as_secs_f64() * 1e3;
        let mut enc = job.encoder();
        for (slot, p) in group.iter().enumerate() {
            let seg_off = BASE_BYTES * (p.first - p.seg * bases.segment_points) as u64;
            let inputs = PassInputs {
                params: arena.params(slot),
                bases: wgpu::BufferBinding {
                    buffer: &bases.segments[p.seg],
                    offset: seg_off,
                    size: wgpu::BufferSize::new(BASE_BYTES * p.n as u64),
                },
                scalars: arena.scalars(slot, p.n),
            };
            job.encode_pass(&mut enc, g * arena.slots() + slot, p.n, inputs)?;
        }
        if g + 1 < groups {
            job.submit(enc)?;
        } else {
            for seg in 0..segments.len() {
                let at = super::bases::FLAG_STRIDE * seg as u64;
                job.copy_flag(&mut enc, seg, &bases.flags, at);
            }
            job.submit_last(enc)?;
        }
    }
    let out = job.finish().await?;
    drop(arena);
    job::check_flags(&out.flags, |seg| seg * bases.segment_points)?;
    Ok(out.results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_cover_each_prefix_within_segments() {
        // Two segments of 8 points, 13 bases; passes of at most 4.
        let segs = [(0, 0, 8), (1, 8, 5)];
        let p = passes(&segs, &[13, 0, 6], 4);
        let set = |k: usize| -> Vec<(usize, usize, usize)> {
            p.iter()
                .filter(|q| q.set == k)
                .map(|q| (q.seg, q.first, q.n))
                .collect()
        };
        assert_eq!(
            set(0),
            [(0, 0, 4), (0, 4, 4), (1, 8, 4), (1, 12, 1)].to_vec()
        );
        assert!(set(1).is_empty(), "an empty set has no pass");
        assert_eq!(set(2), [(0, 0, 4), (0, 4, 2)].to_vec());
    }
}
