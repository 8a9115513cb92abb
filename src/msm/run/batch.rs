//! MSMs over resident bases, one or a batch of scalar sets, as one job: every pass of
//! every set runs over the same working buffers (the device runs passes in order), and
//! all window sums come back in one readback with one wait, so no host round trip
//! separates the MSMs.
//!
//! Passes are submitted in groups of about [`SUBMIT_BYTES`] of scalars (small sets share
//! one submission; a batch of small MSMs is a single one). The host never waits between
//! groups: while the device computes group g, the host converts group g + 1's scalars
//! into the other turn of its slots' reusable upload buffers (see `memory/staging.rs`), where
//! one submission for the whole batch would leave the device idle until every set was
//! written. A group's scalars are copied into their slots at its submission; the next
//! group reuses the slots, which the queue orders after the passes that read them.

use crate::config::MsmConfig;
use crate::curve::Group;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::msm::memory::arena::{Arena, Input};
use crate::msm::memory::upload;
use crate::msm::plan::{self, Feed, SCALAR_BYTES};
use crate::msm::resident::bases::DeviceBases;
use crate::msm::run::job::{Job, PassInputs};
use crate::msm::stages::Params;
use ark_ec::short_weierstrass::Projective;
use ark_ff::Zero;
use std::ops::Range;

/// Scalar bytes after which a batch closes a submission: about a millisecond of host
/// writing, against tens of microseconds for a submission.
pub(crate) const SUBMIT_BYTES: u64 = 4 << 20;

/// One pass of a resident job: set `set`, points `first..first + n` (within one segment
/// of the bases).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pass {
    pub(crate) set: usize,
    pub(crate) first: usize,
    pub(crate) n: usize,
}

/// The passes of every set: each set's prefix of the bases, cut into passes of the
/// `sizes` a set of that length gets (see `plan::pass_sizes`) and at segment ends.
pub(crate) fn passes(
    segments: &[(usize, usize, usize)],
    lens: &[usize],
    sizes: impl Fn(usize) -> Vec<usize>,
) -> Vec<Pass> {
    let mut out = Vec::new();
    for (set, &len) in lens.iter().enumerate() {
        let mut first = 0;
        for size in sizes(len) {
            let end = first + size;
            // The segments this pass's range crosses.
            for &(_, start, seg_len) in segments {
                let (lo, hi) = (first.max(start), end.min(start + seg_len));
                if lo < hi {
                    out.push(Pass {
                        set,
                        first: lo,
                        n: hi - lo,
                    });
                }
            }
            first = end;
        }
    }
    out
}

/// Cuts `passes` into submissions: each closes once its scalars reach SUBMIT_BYTES or
/// it holds `max_slots` passes.
fn submissions(passes: &[Pass], max_slots: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, p) in passes.iter().enumerate() {
        bytes += SCALAR_BYTES * p.n as u64;
        if bytes >= SUBMIT_BYTES || i + 1 - start == max_slots || i + 1 == passes.len() {
            out.push(start..i + 1);
            (start, bytes) = (i + 1, 0);
        }
    }
    out
}

/// Runs the MSMs `sum_i sets[k][i] * bases[i]` for every `k`.
pub(crate) async fn run<C: Group>(
    dev: &Device,
    bases: &DeviceBases<C>,
    sets: &[&[C::ScalarField]],
    cfg: &MsmConfig,
) -> Result<Vec<Projective<C>>> {
    dev.check_owner("DeviceBases", bases.device_uid())?;
    if let Some(long) = sets.iter().find(|s| s.len() > bases.len()) {
        return Err(Error::LengthMismatch {
            bases: bases.len(),
            scalars: long.len(),
        });
    }
    let n = sets.iter().map(|s| s.len()).max().unwrap_or(0);
    if n == 0 {
        return Ok(vec![Projective::<C>::zero(); sets.len()]);
    }
    let tuning = dev.tuning()?;
    let limits = dev.limits(&tuning, C::ID);
    let resident = bases.device_bytes();
    let layout = plan::Layout::resident(C::ID, bases.expanded, cfg);
    // A single large MSM (from 2^`resident_overlap_log2` points) runs in passes growing
    // from a small first one, so that the host writes the scalars of one while the
    // device computes the one before (a batch overlaps across sets). The capacity holds
    // the whole MSM where the device allows it, and the passes grow faster than a
    // one-shot MSM's: the host writes a third of the bytes a point (see `Tuning`).
    let overlap = sets.len() == 1
        && cfg.chunk_size.is_none()
        && n >= 1 << tuning.resident_overlap_log2.min(usize::BITS - 2);
    let plan = plan::choose_for(C::ID, n, cfg, &limits, Feed::Scalars, resident, layout)?;
    let segments: Vec<_> = bases.segment_ranges().collect();
    let lens: Vec<usize> = sets.iter().map(|s| s.len()).collect();
    let cap = plan.points as usize;
    let passes = passes(&segments, &lens, |len| {
        if overlap {
            plan::growing_passes(
                len,
                cap,
                tuning.resident_first_pass_shift,
                tuning.resident_pass_growth_pct,
            )
        } else {
            plan::pass_sizes(len, cap, 0, 200)
        }
    });

    // Slots for the largest submission: at most what the budget leaves after the bases
    // and working buffers, and what the device's largest buffer holds.
    let per_slot = plan.slot_bytes(Feed::Scalars);
    let room = limits
        .budget(cfg, resident)
        .saturating_sub(resident + plan.working_bytes());
    let max_slots = (room / per_slot)
        .min(limits.max_buffer / (per_slot - plan::PARAMS_SLOT))
        .clamp(1, passes.len() as u64);
    let groups = submissions(&passes, max_slots as usize);
    let slots = groups.iter().map(|g| g.len()).max().unwrap_or(1);
    let state = dev.msm_state()?;
    let arena = state.take_arena(
        &dev.inner.device,
        &dev.inner.queue,
        Arena::key_for(&plan, slots as u64, Feed::Scalars, tuning.direct_uploads),
    )?;
    let owners = passes.iter().map(|p| p.set).collect();
    let job = Job::new(dev, cfg, plan, owners, sets.len(), segments.len())?;
    let uploads = state.uploads();
    for (g, range) in groups.iter().enumerate() {
        let group = &passes[range.clone()];
        let last = g + 1 == groups.len();
        // Converted into this turn's upload buffers (free once the group two back is
        // done), copied into the slots at this group's submission, after the previous
        // group's passes have read them. The group's commands are recorded and finished
        // while the host writes its scalars, and submitted once they are written.
        let t = crate::time::Instant::now();
        let params: Vec<Params> = group
            .iter()
            .enumerate()
            .map(|(slot, p)| job.params(range.start + slot, p.n))
            .collect();
        let input = |slot: usize| {
            let p = &group[slot];
            Input::<C>::Scalars(&sets[p.set][p.first..p.first + p.n], params[slot])
        };
        for slot in 0..group.len() {
            arena.ready(dev, slot, g, input(slot)).await?;
        }
        let prepare = || {
            let mut enc = job.encoder();
            for slot in 0..group.len() {
                arena.copy_staged(&mut enc, slot, g, input(slot))?;
            }
            let mut commands = Vec::with_capacity(2);
            for (slot, p) in group.iter().enumerate() {
                let inputs = PassInputs {
                    params: arena.params(slot),
                    bases: bases.binding(p.first, p.n),
                    scalars: arena.scalars(slot, g, p.n)?,
                };
                let early = g == 0 && slot == 0;
                commands.extend(job.encode_whole_pass(
                    &mut enc,
                    range.start + slot,
                    p.n,
                    inputs,
                    early,
                )?);
            }
            if last {
                bases.copy_flags(&job, &mut enc);
            }
            commands.push(job.finish_commands(enc));
            Ok::<_, Error>(commands)
        };
        let write = || {
            let mut filled = std::time::Duration::ZERO;
            for slot in 0..group.len() {
                filled += arena
                    .stage_now(dev, slot, g, input(slot))
                    .ok_or(Error::Cancelled)??;
            }
            Ok::<_, Error>(filled)
        };
        let (commands, filled) = upload::beside(uploads.pool.as_deref(), prepare, write);
        let filled = filled.ok_or(Error::Cancelled)??;
        let bytes = (0..group.len()).map(|slot| input(slot).bytes()).sum();
        job.note_upload(t, filled, crate::time::Instant::now(), bytes);
        let mut index = None;
        let mut commands = commands?.into_iter().peekable();
        while let Some(cb) = commands.next() {
            index = Some(match commands.peek() {
                None if last => job.submit_last_commands(cb)?,
                _ => job.submit_commands(cb)?,
            });
        }
        let index = index.ok_or(Error::Cancelled)?;
        for slot in 0..group.len() {
            arena.recycle(slot, g, input(slot), index.clone());
        }
    }
    let out = job.finish::<C>().await?;
    drop(arena);
    bases.check_flags(&out.flags)?;
    Ok(out.results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_cover_each_prefix_within_segments() {
        // Two segments of 8 points, 13 bases; passes of at most 4.
        let segs = [(0, 0, 8), (1, 8, 5)];
        let p = passes(&segs, &[13, 0, 6], |len| plan::pass_sizes(len, 4, 0, 200));
        let set = |k: usize| -> Vec<(usize, usize, usize)> {
            p.iter()
                .filter(|q| q.set == k)
                .map(|q| (q.first / 8, q.first, q.n))
                .collect()
        };
        assert_eq!(
            set(0),
            [(0, 0, 4), (0, 4, 4), (1, 8, 4), (1, 12, 1)].to_vec()
        );
        assert!(set(1).is_empty(), "an empty set has no pass");
        assert_eq!(set(2), [(0, 0, 4), (0, 4, 2)].to_vec());
    }

    #[test]
    fn submissions_close_at_the_byte_mark_or_the_slot_count() {
        let pass = |n| Pass {
            set: 0,
            first: 0,
            n,
        };
        let big = (SUBMIT_BYTES / SCALAR_BYTES) as usize;
        // Small passes share a submission up to the slot count.
        let small = vec![pass(1000); 10];
        assert_eq!(submissions(&small, 64), vec![0..10]);
        assert_eq!(submissions(&small, 4), [0..4, 4..8, 8..10].to_vec());
        // Large passes go one per submission; a half-size one waits for a second.
        let mixed = [pass(big), pass(big / 2), pass(big / 2), pass(10)];
        assert_eq!(submissions(&mixed, 64), [0..1, 1..3, 3..4].to_vec());
    }
}
