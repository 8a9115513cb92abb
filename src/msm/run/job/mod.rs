//! One MSM job on one device, shared by every entry point (resident bases, batches,
//! streamed host bases): kernels, a pooled working set, one readback buffer for the
//! window sums of every pass (and on-curve flags and timestamps), the encoding of each
//! pass, and the host side that turns the read-back words into one result per MSM.

use crate::config::MsmConfig;
use crate::curve::Group;
use crate::device::gpu;
use crate::device::pipeline::Kernels;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::msm::memory::pool::Lease;
use crate::msm::memory::working::Working;
use crate::msm::plan::tuning::Tuning;
use crate::msm::plan::Plan;
use crate::msm::stages::{self, Params};
use crate::msm::state::Readback;
use crate::shader::ShaderKind;
use crate::time::Instant;
use ark_ec::short_weierstrass::Projective;
use std::sync::Arc;

mod finish;
mod submit;

/// The inputs one pass binds: its parameter block, its range of bases and of scalars.
#[derive(Clone)]
pub(crate) struct PassInputs<'b> {
    pub(crate) params: wgpu::BufferBinding<'b>,
    pub(crate) bases: wgpu::BufferBinding<'b>,
    pub(crate) scalars: wgpu::BufferBinding<'b>,
}

/// Timestamps per pass (begin and end of every stage).
const STAMPS_PER_PASS: u32 = 2 * stages::STAGES.len() as u32;

/// Timestamp queries of a profiled job: the query set and its resolve buffer.
struct Queries {
    set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    count: u32,
}

/// A job of `owners.len()` passes computing `msms` MSMs on one device.
pub(crate) struct Job<'a> {
    dev: &'a Device,
    /// The device's tuning when the job began.
    tuning: Tuning,
    plan: Plan,
    kernels: Arc<Kernels>,
    work: Lease<'a, Working>,
    fold_bind: wgpu::BindGroup,
    /// The kernel sizing the fold steps, where the device dispatches them indirectly.
    fold_args: Option<Arc<Kernels>>,
    readback: Lease<'a, Readback>,
    /// The MSM each pass contributes to.
    owners: Vec<usize>,
    msms: usize,
    flags: usize,
    flags_at: u64,
    /// Where the readback gets the accumulation workgroup counts of the job's last pass
    /// (in, out, most running at once).
    running_at: u64,
    /// The wave size the job's passes are shaped to (`Params::in_whole_waves`), read
    /// once from the kernels so that every pass's uniforms and dispatches agree.
    waves_of: u32,
    stamps_at: u64,
    queries: Option<Queries>,
    started: Instant,
    /// Host times of the first and the latest submission (for the profile).
    submits: std::sync::Mutex<Option<(Instant, Instant)>>,
    /// Host time spent writing inputs, waiting for upload buffers, and bytes written
    /// (for the profile).
    upload: std::sync::Mutex<(f64, f64, u64)>,
    /// Host events of a profiled job (what, start, end), for the profile's timeline.
    events: std::sync::Mutex<Vec<(String, Instant, Instant)>>,
    /// The job's final reduction, recorded by [`Job::submit_last`] in a submission of
    /// its own: the final pass's bind group and index.
    final_reduce: std::sync::Mutex<Option<(wgpu::BindGroup, usize, usize)>>,
    /// The submission before the final reduction and a receiver told when it is done.
    before_reduce: std::sync::Mutex<Option<(wgpu::SubmissionIndex, Done)>>,
}

/// Told when a submission is done.
type Done = futures_intrusive::channel::shared::OneshotReceiver<()>;

/// What a job read back: the result of every MSM and the raw on-curve flag words
/// (u32::MAX, or the first off-curve index within the flag's range).
pub(crate) struct JobOutput<C: Group> {
    pub(crate) results: Vec<Projective<C>>,
    pub(crate) flags: Vec<u32>,
}

impl<'a> Job<'a> {
    /// Sets up a job with `plan`: `owners[p]` is the MSM pass `p` adds to (in
    /// `0..msms`), and `flags` on-curve flag words will be copied out with
    /// [`Job::copy_flag`].
    pub(crate) fn new(
        dev: &'a Device,
        cfg: &MsmConfig,
        plan: Plan,
        owners: Vec<usize>,
        msms: usize,
        flags: usize,
    ) -> Result<Job<'a>> {
        let started = Instant::now();
        let path = dev.resolve_arithmetic(cfg.arithmetic)?;
        let device = &dev.inner.device;
        let state = dev.msm_state()?;
        let tuning = state.tuning();
        let kernels = state.kernels(dev, plan.group, ShaderKind::Msm, path)?;
        let work = state.take_working(device, &dev.inner.queue, &plan)?;
        let fold_args = if tuning.fold_indirect {
            Some(state.kernels(dev, plan.group, ShaderKind::FoldArgs, path)?)
        } else {
            None
        };
        let fold_bind = gpu::checked(device, "msm fold bind group", || {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("msm/fold-step"),
                layout: &kernels.extra_layouts[0],
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &work.fold_steps,
                        offset: 0,
                        size: wgpu::BufferSize::new(4),
                    }),
                }],
            })
        })?;
        let passes = owners.len() as u64;
        // The bucket totals carry over from one pass of an MSM to the next, so each MSM's
        // passes must be consecutive.
        let mut seen = vec![false; msms];
        for (p, &o) in owners.iter().enumerate() {
            let starts = p == 0 || owners[p - 1] != o;
            if o >= msms || (starts && std::mem::replace(&mut seen[o], true)) {
                return Err(Error::Gpu {
                    context: "msm/job".into(),
                    message: format!("pass {p} of MSM {o} is not next to its other passes"),
                });
            }
        }
        let flags_at =
            msms as u64 * Params::new(&plan, 0, true).window_sums_bytes(plan.group.point_bytes());
        let running_at = flags_at + 4 * flags as u64;
        let stamps_at = (running_at + 12).next_multiple_of(8);
        let waves_of = if tuning.whole_waves {
            kernels
                .most_running
                .load(std::sync::atomic::Ordering::Relaxed)
        } else {
            0
        };
        let profiling = cfg.profile && device.features().contains(wgpu::Features::TIMESTAMP_QUERY);
        // Passes beyond what one query set holds go unprofiled.
        let stamped = passes.min(u64::from(wgpu::QUERY_SET_MAX_QUERIES / STAMPS_PER_PASS));
        let queries = if profiling && stamped > 0 {
            let count = STAMPS_PER_PASS * stamped as u32;
            Some(Queries {
                set: device.create_query_set(&wgpu::QuerySetDescriptor {
                    label: Some("msm/timestamps"),
                    ty: wgpu::QueryType::Timestamp,
                    count,
                }),
                resolve: gpu::create_buffer(
                    device,
                    "msm/timestamps-resolve",
                    8 * u64::from(count),
                    wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                )?,
                count,
            })
        } else {
            None
        };
        let stamp_bytes = queries.as_ref().map_or(0, |q| 8 * u64::from(q.count));
        let readback = state.take_readback(device, stamps_at + stamp_bytes)?;
        Ok(Job {
            dev,
            tuning,
            plan,
            kernels,
            work,
            fold_bind,
            fold_args,
            readback,
            owners,
            msms,
            flags,
            flags_at,
            running_at,
            waves_of,
            stamps_at,
            queries,
            started,
            submits: std::sync::Mutex::new(None),
            upload: std::sync::Mutex::new((0.0, 0.0, 0)),
            events: std::sync::Mutex::new(Vec::new()),
            final_reduce: std::sync::Mutex::new(None),
            before_reduce: std::sync::Mutex::new(None),
        })
    }

    /// Notes one staged input for the profile: `bytes` written in `filled`, ending at
    /// `end`, out of `end - since` (the rest was waiting for the upload buffer).
    pub(crate) fn note_upload(
        &self,
        since: Instant,
        filled: std::time::Duration,
        end: Instant,
        bytes: u64,
    ) {
        let total = end.saturating_duration_since(since).as_secs_f64() * 1e3;
        let fill = filled.as_secs_f64() * 1e3;
        let mut u = self.upload.lock().unwrap_or_else(|e| e.into_inner());
        u.0 += fill;
        u.1 += (total - fill).max(0.0);
        u.2 += bytes;
        drop(u);
        self.event(
            format!("fill {:.1} MB", bytes as f64 / 1e6),
            end - filled,
            end,
        );
    }

    /// Starts the job's clock at `t` (before its setup: the timeline then shows what the
    /// caller did first), and records that setup as a host event.
    pub(crate) fn since(mut self, t: Instant, what: &str) -> Self {
        let now = Instant::now();
        self.started = t;
        self.event(what.into(), t, now);
        self
    }

    /// Whether the job is profiled (records its timeline).
    pub(crate) fn profiled(&self) -> bool {
        self.queries.is_some()
    }

    /// Records a host event for a profiled job's timeline.
    pub(crate) fn event(&self, what: String, start: Instant, end: Instant) {
        if self.queries.is_some() {
            let mut e = self.events.lock().unwrap_or_else(|e| e.into_inner());
            e.push((what, start, end));
        }
    }

    /// The plan the job's passes run.
    pub(crate) fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Whether pass `index` is its MSM's first (it starts the MSM's bucket totals).
    fn starts_msm(&self, index: usize) -> bool {
        index == 0 || self.owners[index - 1] != self.owners[index]
    }

    /// The parameters of pass `index`, of `n` points: what its inputs carry to the
    /// device and what its dispatches are sized by.
    pub(crate) fn params(&self, index: usize, n: usize) -> Params {
        Params::new(&self.plan, n as u32, self.starts_msm(index))
            .in_whole_waves(self.waves_of)
            .with_bins(self.tuning.scatter_bins)
    }

    /// A command encoder for the job's next submission.
    pub(crate) fn encoder(&self) -> wgpu::CommandEncoder {
        self.dev
            .inner
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("msm") })
    }

    /// [`Job::encode_pass`] of a whole pass, except that with `early` (a job's first
    /// pass) the pass's scalar stages are finished into commands of their own, returned
    /// for the caller to submit first, and the rest recorded into a fresh `enc`: the
    /// device starts on them while the host records (and wgpu finishes) the rest.
    pub(crate) fn encode_whole_pass(
        &self,
        enc: &mut wgpu::CommandEncoder,
        index: usize,
        n: usize,
        inputs: PassInputs<'_>,
        early: bool,
    ) -> Result<Option<wgpu::CommandBuffer>> {
        if !early {
            self.encode_pass(enc, index, n, inputs, stages::Part::All)?;
            return Ok(None);
        }
        self.encode_pass(enc, index, n, inputs.clone(), stages::Part::Scalars)?;
        let first = self.finish_commands(std::mem::replace(enc, self.encoder()));
        self.encode_pass(enc, index, n, inputs, stages::Part::Bases)?;
        Ok(Some(first))
    }

    /// Records pass `index` of `n` points over `inputs` (or `part` of it) into `enc`.
    /// Passes share the working buffers: the device runs them in order, each starting
    /// with its own clear of the bucket counts and adding into its MSM's bucket totals;
    /// an MSM's last pass sends its window sums to the readback buffer.
    pub(crate) fn encode_pass(
        &self,
        enc: &mut wgpu::CommandEncoder,
        index: usize,
        n: usize,
        inputs: PassInputs<'_>,
        part: stages::Part,
    ) -> Result<()> {
        let device = &self.dev.inner.device;
        let w = &*self.work;
        fn buf(binding: u32, b: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
            wgpu::BindGroupEntry {
                binding,
                resource: b.as_entire_binding(),
            }
        }
        fn at(binding: u32, b: wgpu::BufferBinding<'_>) -> wgpu::BindGroupEntry<'_> {
            wgpu::BindGroupEntry {
                binding,
                resource: wgpu::BindingResource::Buffer(b),
            }
        }
        let bind = gpu::checked(device, "msm bind group", || {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("msm/pass"),
                layout: &self.kernels.layout,
                entries: &[
                    at(0, inputs.params.clone()),
                    at(1, inputs.bases),
                    at(2, inputs.scalars),
                    buf(3, &w.digits),
                    buf(4, &w.counts),
                    buf(5, &w.offsets),
                    buf(6, &w.sorted),
                    buf(7, &w.scratch),
                    buf(8, &w.totals),
                ],
            })
        })?;
        let fold_args = match &self.fold_args {
            Some(k) if part.stages().contains(&stages::FOLD) => {
                Some(gpu::checked(device, "msm fold-args bind group", || {
                    device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("msm/fold-args"),
                        layout: &k.layout,
                        entries: &[
                            at(0, inputs.params.clone()),
                            buf(1, &w.counts),
                            buf(2, &w.fold_dispatch),
                        ],
                    })
                })?)
            }
            _ => None,
        };
        let params = self.params(index, n);
        let mut stages = part.stages();
        if index + 1 == self.owners.len() && stages.contains(&stages::REDUCE) {
            // The job's final reduction goes in a submission of its own (see
            // `submit_last`), so that the host can sleep until it starts.
            stages.end = stages::REDUCE;
        }
        self.record(
            enc,
            &bind,
            fold_args.as_ref(),
            index,
            &params,
            stages.clone(),
        );
        if stages.end == stages::REDUCE {
            *self.final_reduce.lock().unwrap_or_else(|e| e.into_inner()) = Some((bind, index, n));
        }
        Ok(())
    }

    /// Records `stages` of pass `index` (bound by `bind`, sized by `params`) into `enc`:
    /// its timestamps, and whether it starts its MSM or ends it (then its window sums
    /// go to the readback buffer).
    fn record(
        &self,
        enc: &mut wgpu::CommandEncoder,
        bind: &wgpu::BindGroup,
        fold_args: Option<&wgpu::BindGroup>,
        index: usize,
        params: &Params,
        stages: std::ops::Range<usize>,
    ) {
        let owner = self.owners[index];
        let stamps = self.queries.as_ref().and_then(|q| {
            let at = STAMPS_PER_PASS * index as u32;
            (at < q.count).then_some((&q.set, at))
        });
        let last = self.owners.get(index + 1) != Some(&owner);
        let role = stages::Role {
            first: self.starts_msm(index),
            sums: last.then(|| {
                (
                    &self.readback.buffer,
                    owner as u64 * params.window_sums_bytes(self.plan.group.point_bytes()),
                )
            }),
            point_bytes: self.plan.group.point_bytes(),
            running: (index + 1 == self.owners.len())
                .then_some((&self.readback.buffer, self.running_at)),
        };
        let fold = match (&self.fold_args, fold_args) {
            (Some(k), Some(bind)) => Some(stages::FoldIndirect {
                pipeline: k.get("fold_args"),
                bind,
            }),
            _ => None,
        };
        stages::encode(
            enc,
            &self.kernels,
            [bind, &self.fold_bind],
            fold,
            &self.work,
            params,
            self.dev.info().max_workgroups_per_dimension,
            role,
            stamps,
            stages,
        );
    }

    /// Copies flag word `index` (of the `flags` the job was made with) from `src`.
    pub(crate) fn copy_flag(
        &self,
        enc: &mut wgpu::CommandEncoder,
        index: usize,
        src: &wgpu::Buffer,
        offset: u64,
    ) {
        let dst = self.flags_at + 4 * index as u64;
        enc.copy_buffer_to_buffer(src, offset, &self.readback.buffer, dst, 4);
    }
}

/// The first off-curve base reported by `flags`, where flag `i` covers the bases from
/// global index `start(i)` on.
pub(crate) fn check_flags(flags: &[u32], start: impl Fn(usize) -> usize) -> Result<()> {
    match flags.iter().position(|&f| f != u32::MAX) {
        Some(i) => Err(Error::PointNotOnCurve {
            index: start(i) + flags[i] as usize,
        }),
        None => Ok(()),
    }
}
