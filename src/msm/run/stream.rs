//! One-shot MSMs of host bases, which need not all be on the device: the input is
//! streamed in chunks of one pass each through two pooled input slots. The host writes
//! chunk k + 1 (bases and scalars, converted into the slot's reusable upload buffers,
//! see `memory/staging.rs`) while the device computes chunk k; a slot's buffers come back once
//! the device has copied chunk k - 1 out of them, which also bounds the host memory to
//! two chunks. Each chunk's bases are checked on
//! the curve in the same submission; a bad one is reported with its global index.
//!
//! Every one-shot MSM goes this way (pooled slots, no allocation per call); inputs below
//! 2^20 points are usually one chunk. Larger ones stream in several chunks even when
//! they fit, so that the upload of each chunk hides behind the compute of the last: a
//! small first chunk (the device starts early), then chunks growing 2.5-fold up to
//! about half the input (see `plan::overlapped` and `plan::growing_passes`), or up to
//! the input's last chunk below 2^21 points. The bucket totals carry over from chunk
//! to chunk, so only the last one runs the bucket reduction.

use crate::config::MsmConfig;
use crate::curve::{Group, GroupId};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::msm::memory::arena::{Arena, Input};
use crate::msm::memory::upload;
use crate::msm::plan::{self, Feed, Plan};
use crate::msm::run::job::{self, Job, PassInputs};
use crate::msm::stages::Part;
use crate::time::Instant;
use ark_ec::short_weierstrass::{Affine, Projective};

/// How a one-shot MSM runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// Upload every base, then the resident path.
    Resident,
    /// Stream chunks of at most `plan`'s capacity: growing ones (`plan::growing_passes`)
    /// where `growing` (a large input cut so that its uploads overlap compute, even
    /// where one pass would hold it), else full ones after growing ones only when the
    /// input does not fit one pass (`plan::pass_sizes`).
    Stream { plan: Plan, growing: bool },
}

/// The route of a one-shot MSM of `n` points: through the pooled input slots, from
/// 2^20 points on (unless `chunk_size` is set) in growing chunks of at most n / 2
/// within 2^20 to 2^22 points, below 2^21 points of at most the whole input; else in
/// chunks as large as the limits and budget allow (one chunk for most inputs, so no
/// allocation per call); resident bases (allocated for the call) only when the slots do
/// not fit but that does.
///
/// # Errors
/// [`Error::OutOfMemory`] when neither fits (even a pass of 64 points); a bad window.
pub(crate) fn route(dev: &Device, group: GroupId, n: usize, cfg: &MsmConfig) -> Result<Route> {
    let tuning = dev.tuning()?;
    let limits = dev.limits(&tuning, group);
    let layout = plan::Layout::streamed(group, cfg);
    // From 2^`stream_overlap_log2` points (see `Tuning`); smaller inputs gain less from
    // the overlap than their extra passes cost.
    let min = 1usize << tuning.stream_overlap_log2.min(usize::BITS - 2);
    if let Some(overlap) = plan::overlapped(n, cfg, min, tuning.overlap_divisor) {
        // Large inputs stream even when they fit: the upload of each chunk then hides
        // behind the compute of the one before, at the cost of a collect step a pass.
        if let Ok(p) = plan::choose_for(group, n, &overlap, &limits, Feed::Chunks, 0, layout) {
            return Ok(Route::Stream {
                plan: p,
                growing: true,
            });
        }
    }
    match plan::choose_for(group, n, cfg, &limits, Feed::Chunks, 0, layout) {
        Ok(p) => Ok(Route::Stream {
            plan: p,
            growing: false,
        }),
        Err(e) => {
            // Uploaded with `upload_bases_with(cfg)`: expanded unless cfg says no.
            let expanded = plan::Layout::glv_asked(group, cfg);
            let resident = crate::msm::resident::bases::point_bytes(group, expanded) * n as u64;
            let layout = plan::Layout::resident(group, expanded, cfg);
            plan::choose_for(group, n, cfg, &limits, Feed::Scalars, resident, layout)
                .map(|_| Route::Resident)
                .map_err(|_| e)
        }
    }
}

/// Streams `bases` and `scalars` (equal lengths, not empty) through passes of `plan`,
/// `growing` as [`Route::Stream`] says.
pub(crate) async fn run<C: Group>(
    dev: &Device,
    bases: &[Affine<C>],
    scalars: &[C::ScalarField],
    cfg: &MsmConfig,
    plan: Plan,
    growing: bool,
) -> Result<Projective<C>> {
    let t_call = Instant::now();
    let tuning = dev.tuning()?;
    let (cap, shift, growth) = (
        plan.points as usize,
        tuning.first_pass_shift + C::ID.stream_first_pass_extra_shift(),
        tuning.stream_growth_pct(plan.window_bits),
    );
    let sizes = if growing {
        plan::growing_passes(bases.len(), cap, shift, growth)
    } else {
        plan::pass_sizes(bases.len(), cap, shift, growth)
    };
    let chunks: Vec<(usize, usize)> = sizes
        .iter()
        .scan(0, |first, &n| {
            *first += n;
            Some((*first - n, n))
        })
        .collect();
    let path = dev.resolve_arithmetic(cfg.arithmetic)?;
    // The on-curve check of each chunk, which also expands it for GLV passes.
    let check = if plan.layout.expanded() {
        dev.expand_kernels(C::ID, path)?
    } else {
        dev.check_kernels(C::ID, path)?
    };
    // Two slots let the upload of one chunk overlap the compute of the other; a single
    // chunk needs one (and one set of upload buffers).
    let slots = Feed::Chunks.min_slots().min(chunks.len() as u64);
    let key = Arena::key_for(&plan, slots, Feed::Chunks, tuning.direct_uploads);
    let arena = dev
        .msm_state()?
        .take_arena(&dev.inner.device, &dev.inner.queue, key)?;
    let job =
        Job::new(dev, cfg, plan, vec![0; chunks.len()], 1, chunks.len())?.since(t_call, "setup");
    let params: Vec<_> = (0..chunks.len())
        .map(|k| job.params(k, chunks[k].1))
        .collect();
    // The uploads in order: each chunk's scalars, then its bases. A chunk's scalars go
    // first, with the stages that read only them, so the device runs those while the
    // host writes the bases. Chunk k uses slot k % slots, whose upload buffers come back
    // once the device has copied chunk k - slots out of them.
    let steps: Vec<Step> = (0..chunks.len())
        .flat_map(|k| [Step { k, bases: false }, Step { k, bases: true }])
        .collect();
    let input = |s: Step| {
        let (first, n) = chunks[s.k];
        if s.bases {
            Input::Bases(&bases[first..first + n])
        } else {
            Input::<C>::Scalars(&scalars[first..first + n], params[s.k])
        }
    };
    let slot_of = |s: Step| s.k % arena.slots();
    let uploads = dev.msm_state()?.uploads();
    // Each step's commands are recorded and finished a step ahead, while the upload
    // before it is written, and submitted as soon as its own upload is done: the device
    // gets each pass without waiting for wgpu to encode it. The commands go to this
    // thread and the writes to the device's upload threads (`rayon::join` from outside
    // a pool would queue the commands there too, behind the upload pieces of every
    // other stream: a cluster's streams kept one shared pool busy).
    let prepare = |s: Step| prepare_step(dev, &job, &arena, &check, s, input(s));
    let write = |s: Step| {
        let t0 = Instant::now();
        let r = arena
            .stage_now(dev, slot_of(s), 0, input(s))
            .map(|r| r.map(|d| (d, Instant::now())));
        if job.profiled() {
            job.event(format!("write {}", s.tag()), t0, Instant::now());
        }
        r
    };
    // Writes step `s`'s upload (where `early` did not, its buffer being busy then) and
    // notes it, from `t`.
    let (arena_ref, job_ref) = (&arena, &job);
    let note = |s: Step, t: Instant, early: Option<Result<_>>| async move {
        let (filled, end) = match early {
            Some(r) => r?,
            None => (
                arena_ref.stage(dev, slot_of(s), 0, input(s)).await?,
                Instant::now(),
            ),
        };
        job_ref.note_upload(t, filled, end, input(s).bytes());
        Ok::<_, Error>(())
    };
    let t = Instant::now();
    arena
        .ready(dev, slot_of(steps[0]), 0, input(steps[0]))
        .await?;
    job.event("ready".into(), t, Instant::now());
    // The first chunk's two steps (its scalars, then its bases): both recorded here
    // while the upload threads write both in turn, the scalars' submitted as soon as
    // they are written (the device runs their stages while the bases are written), so
    // that the device then waits once, for the bases' upload, not also for wgpu to
    // encode their commands. Without upload threads (`beside` runs this thread's part
    // first) the scalars wait for the loop below.
    let head = steps.len().min(2);
    // Whether the scalars were written (a write that panics drops the sender unsent).
    let (told, scalars_written) = std::sync::mpsc::sync_channel::<bool>(1);
    let ((first, submitted), early) = upload::beside(
        uploads.pool.as_deref(),
        || {
            let cbs = match steps[..head]
                .iter()
                .map(|&s| prepare(s))
                .collect::<Result<Vec<_>>>()
            {
                Ok(cbs) => cbs,
                Err(e) => return (Err(e), None),
            };
            if uploads.pool.is_none() || head < 2 {
                return (Ok(cbs), None);
            }
            // Polled, not slept on: a woken thread would start the device late.
            let written = loop {
                match scalars_written.try_recv() {
                    Ok(w) => break w,
                    Err(std::sync::mpsc::TryRecvError::Empty) => std::thread::yield_now(),
                    Err(std::sync::mpsc::TryRecvError::Disconnected) => break false,
                }
            };
            if !written {
                return (Ok(cbs), None);
            }
            let mut cbs = cbs.into_iter();
            let submitted = cbs.next().map(|cb| job.submit_commands(cb));
            (Ok(cbs.collect()), submitted)
        },
        || {
            // Owned here, so that a panicking write drops it: the waiting thread then
            // sees it gone.
            let told = told;
            let scalars = write(steps[0]);
            let _ = told.send(matches!(scalars, Some(Ok(_))));
            [Some(scalars), steps.get(1).map(|&s| write(s))]
        },
    );
    let mut prepared = std::collections::VecDeque::from(first?);
    // The steps recorded so far (the queue holds those not submitted yet).
    let mut recorded = head;
    let start = match submitted {
        Some(index) => {
            arena.recycle(slot_of(steps[0]), 0, input(steps[0]), index?);
            1
        }
        None => 0,
    };
    for (&s, e) in steps.iter().zip(early.into_iter().flatten()) {
        note(s, t, e.flatten()).await?;
    }
    for (i, &step) in steps.iter().enumerate().skip(start) {
        let cb = prepared.pop_front().ok_or(Error::Cancelled)?;
        // The next step's upload (unless written already, with the first chunk) and
        // the commands of the first step not recorded yet (at most two ahead).
        let next = steps.get(i + 1).copied();
        let upload = next.filter(|_| i + 1 >= head);
        let ahead = steps.get(recorded).copied().filter(|_| recorded <= i + 2);
        recorded += usize::from(ahead.is_some());
        // Submits this step, then records the one ahead while the next one's upload is
        // written (where its buffer is free already; else it is written after).
        let launch = || {
            let index = match next {
                Some(_) => job.submit_commands(cb)?,
                None => job.submit_last_commands(cb)?,
            };
            Ok::<_, Error>((index, ahead.map(prepare).transpose()?))
        };
        let t = Instant::now();
        let (launched, early) = match upload {
            Some(ns) => upload::beside(uploads.pool.as_deref(), launch, || write(ns)),
            None => (launch(), None),
        };
        let (index, commands) = launched?;
        arena.recycle(slot_of(step), 0, input(step), index);
        prepared.extend(commands);
        if let Some(ns) = upload {
            note(ns, t, early.flatten()).await?;
        }
    }
    let out = job.finish::<C>().await?;
    drop(arena);
    job::check_flags(&out.flags, |k| chunks[k].0)?;
    out.results.into_iter().next().ok_or(Error::Cancelled)
}

/// One upload of a streamed MSM: chunk `k`'s scalars, or its bases.
#[derive(Clone, Copy)]
struct Step {
    k: usize,
    bases: bool,
}

impl Step {
    /// The step as a profile's timeline names it: `3s` (chunk 3's scalars), `3b`.
    fn tag(self) -> String {
        format!("{}{}", self.k, if self.bases { "b" } else { "s" })
    }
}

/// Records the recording of `step`'s commands, from `t0`, in a profiled job's timeline.
fn note_encoding(job: &Job<'_>, step: Step, t0: Instant) {
    if job.profiled() {
        job.event(format!("encode {}", step.tag()), t0, Instant::now());
    }
}

/// Records and finishes what `step` lets the device do once its `input` is staged: the
/// copy out of the upload buffer, then for scalars the stages that read only them, for
/// bases the on-curve check and the rest of the pass. Recorded while the upload
/// buffer is still being written; submitted once it is.
fn prepare_step<C: Group>(
    dev: &Device,
    job: &Job<'_>,
    arena: &Arena,
    check: &crate::device::pipeline::Kernels,
    step: Step,
    input: Input<'_, C>,
) -> Result<wgpu::CommandBuffer> {
    let (slot, n) = (step.k % arena.slots(), input.len());
    let (points, flag) = arena.chunk(slot, n)?;
    let scalars = arena.scalars(slot, 0, n)?;
    // Each submission binds only the input it reads (the stages of the other part see
    // the same buffer in its place, unread): an upload buffer read in place may be
    // mapped again, or still being written, while the other part's submission runs.
    let expanded = match step.bases {
        true => job
            .plan()
            .layout
            .expanded()
            .then(|| arena.expanded(n))
            .transpose()?,
        false => None,
    };
    let (bases, scalars) = match (step.bases, &expanded) {
        (true, Some(e)) => (e.clone(), points.clone()),
        (true, None) => (points.clone(), points.clone()),
        (false, _) => (scalars.clone(), scalars),
    };
    let inputs = PassInputs {
        params: arena.params(slot),
        bases,
        scalars,
    };
    let t0 = Instant::now();
    let mut enc = job.encoder();
    arena.copy_staged(&mut enc, slot, 0, input)?;

    if !step.bases {
        job.encode_pass(&mut enc, step.k, n, inputs, Part::Scalars)?;
        note_encoding(job, step, t0);
        return Ok(job.finish_commands(enc));
    }
    match expanded {
        Some(e) => dev.encode_expand(check, &mut enc, points, flag.clone(), e, n)?,
        None => dev.encode_check(check, &mut enc, points, flag.clone(), n)?,
    }
    job.encode_pass(&mut enc, step.k, n, inputs, Part::Bases)?;
    job.copy_flag(&mut enc, step.k, flag.buffer, flag.offset);
    note_encoding(job, step, t0);
    Ok(job.finish_commands(enc))
}
