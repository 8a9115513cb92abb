//! Input slots of a job: per pass in flight, a parameter block and the pass's scalars
//! (and, when host bases are streamed, its chunk of bases and an on-curve flag), written
//! by the host into reusable upload buffers (see `memory/staging.rs`) and either copied into
//! device buffers or read where they are (`Tuning::direct_uploads`). Slots of one kind share
//! one device buffer, so a slot is a range bound at an aligned offset; arenas are
//! pooled per device like the working buffers.

use crate::curve::{Group, GroupId};
use crate::device::gpu;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::msm::memory::pool::Pooled;
use crate::msm::memory::staging::Staging;
use crate::msm::memory::upload::{self, Uploads};
use crate::msm::plan::tuning::DirectUploads;
use crate::msm::plan::{Feed, Plan, FLAG_SLOT, PARAMS_SLOT};
use crate::msm::stages::Params;
use ark_ec::short_weierstrass::Affine;

/// The shape an arena was made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ArenaKey {
    /// The group (the sizes of its bases and scalars).
    pub(crate) group: GroupId,
    /// Points per slot (the plan's `points`).
    pub(crate) points: u32,
    /// Slots.
    pub(crate) slots: u32,
    /// What each slot holds.
    pub(crate) feed: Feed,
    /// Whether streamed bases are expanded on the device (GLV passes): one region of
    /// expanded bases, which each pass rewrites before its accumulation reads it.
    pub(crate) expanded: bool,
    /// What the kernels read in place (the device's tuning when it was made).
    pub(crate) direct: DirectUploads,
}

/// Bases (unless read in place) and flags of streamed chunks, and the expanded bases
/// of the pass being computed (GLV passes).
pub(crate) struct ChunkBuffers {
    bases: Option<wgpu::Buffer>,
    flags: wgpu::Buffer,
    expanded: Option<wgpu::Buffer>,
}

/// Host input of one pass.
pub(crate) enum Input<'a, C: Group> {
    /// The pass's scalars, and its parameter block (staged with them).
    Scalars(&'a [C::ScalarField], Params),
    /// The pass's bases (streamed chunks).
    Bases(&'a [Affine<C>]),
    /// Only the pass's parameter block (its bases and scalars are resident).
    Params(Params),
}

impl<C: Group> Clone for Input<'_, C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: Group> Copy for Input<'_, C> {}

impl<C: Group> Input<'_, C> {
    fn which(self) -> usize {
        match self {
            Input::Scalars(..) | Input::Params(_) => 0,
            Input::Bases(_) => 1,
        }
    }

    /// Points (bases or scalars) the input holds.
    pub(crate) fn len(self) -> usize {
        match self {
            Input::Scalars(s, _) => s.len(),
            Input::Bases(b) => b.len(),
            Input::Params(_) => 0,
        }
    }

    /// Bytes of the input as the device holds it.
    pub(crate) fn bytes(self) -> u64 {
        match self {
            Input::Scalars(s, _) => C::ID.scalar_bytes() * s.len() as u64,
            Input::Bases(b) => C::ID.base_bytes() * b.len() as u64,
            Input::Params(_) => 0,
        }
    }
}

/// Input slots on one device.
pub(crate) struct Arena {
    key: ArenaKey,
    params: wgpu::Buffer,
    /// One word of u32::MAX, copied into a chunk's on-curve flag to reset it (no
    /// `write_buffer`: its per-call staging allocation cost milliseconds per MSM).
    flag_reset: wgpu::Buffer,
    /// The slots' scalars, unless read in place.
    scalars: Option<wgpu::Buffer>,
    chunks: Option<ChunkBuffers>,
    uploads: Vec<Staging>,
}

impl Pooled for Arena {
    type Key = ArenaKey;
    fn key(&self) -> ArenaKey {
        self.key
    }
}

fn range(buffer: &wgpu::Buffer, offset: u64, size: u64) -> wgpu::BufferBinding<'_> {
    wgpu::BufferBinding {
        buffer,
        offset,
        size: wgpu::BufferSize::new(size),
    }
}

impl Arena {
    /// Allocates the slots `key` describes, with device buffers for the inputs the
    /// kernels do not read in place (`key.direct`). Where the device allows
    /// it, the upload buffers are zeroed by the device (a submission on `queue`) rather
    /// than by the host (see [`Staging::new`]).
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue, key: ArenaKey) -> Result<Arena> {
        let direct = key.direct;
        let slots = u64::from(key.slots);
        let cap = u64::from(key.points);
        let chunks = match key.feed {
            Feed::Scalars | Feed::Params => None,
            Feed::Chunks => Some(ChunkBuffers {
                bases: (!direct.bases())
                    .then(|| {
                        gpu::create_buffer(
                            device,
                            "msm/chunk-bases",
                            key.group.base_bytes() * cap * slots,
                            gpu::STORAGE,
                        )
                    })
                    .transpose()?,
                flags: gpu::create_buffer(
                    device,
                    "msm/chunk-flags",
                    FLAG_SLOT * slots,
                    gpu::STORAGE,
                )?,
                // One region for every slot: passes run in order on the device, and a
                // pass expands its bases after the one before has read its own.
                expanded: key
                    .expanded
                    .then(|| {
                        gpu::create_buffer(
                            device,
                            "msm/chunk-expanded",
                            2 * key.group.base_bytes() * cap,
                            gpu::STORAGE,
                        )
                    })
                    .transpose()?,
            }),
        };
        // Reusable upload buffers (see [`Staging`]): per streamed slot one for its
        // scalars and one for its bases; per resident slot two for its scalars, used by
        // alternate submissions so the host fills one while the device copies the other.
        // A scalar upload buffer also carries its pass's parameter block after the
        // scalars (see [`Arena::params_at`]); with resident scalars (`Feed::Params`) it
        // holds only that block.
        let scalars_up = match key.feed {
            Feed::Params => ("msm/upload-params", PARAMS_SLOT, false),
            _ => (
                "msm/upload-scalars",
                key.group.scalar_bytes() * cap + PARAMS_SLOT,
                direct.scalars(),
            ),
        };
        let bases_up = (
            "msm/upload-bases",
            key.group.base_bytes() * cap,
            direct.bases(),
        );
        let sizes: Vec<(&str, u64, bool)> = match key.feed {
            Feed::Chunks => (0..slots).flat_map(|_| [scalars_up, bases_up]).collect(),
            Feed::Scalars | Feed::Params => (0..2 * slots).map(|_| scalars_up).collect(),
        };
        let flag_reset = gpu::create_buffer_mapped(
            device,
            "msm/flag-reset",
            4,
            wgpu::BufferUsages::COPY_SRC,
            true,
        )?;
        if let Ok(mut view) = flag_reset.slice(..).get_mapped_range_mut() {
            view.slice(..).copy_from_slice(&u32::MAX.to_le_bytes());
        }
        flag_reset.unmap();
        let by_device = device
            .features()
            .contains(wgpu::Features::MAPPABLE_PRIMARY_BUFFERS);
        let uploads: Vec<Staging> = sizes
            .into_iter()
            .map(|(label, size, in_place)| Staging::new(device, label, size, in_place, by_device))
            .collect::<Result<_>>()?;
        if by_device {
            let mut enc = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("msm/upload-clear"),
            });
            for s in &uploads {
                s.clear(&mut enc);
            }
            let index = gpu::checked(device, "msm upload clear", || queue.submit([enc.finish()]))?;
            for s in &uploads {
                s.recycle(index.clone());
            }
        }
        Ok(Arena {
            key,
            uploads,
            flag_reset,
            params: gpu::create_buffer(
                device,
                "msm/params",
                PARAMS_SLOT * slots,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            )?,
            scalars: (!direct.scalars() && key.feed != Feed::Params)
                .then(|| {
                    gpu::create_buffer(
                        device,
                        "msm/scalars",
                        key.group.scalar_bytes() * cap * slots,
                        gpu::STORAGE,
                    )
                })
                .transpose()?,
            chunks,
        })
    }

    /// The key of an arena with `slots` slots for `plan`, fed as `feed`.
    pub(crate) fn key_for(plan: &Plan, slots: u64, feed: Feed, direct: DirectUploads) -> ArenaKey {
        ArenaKey {
            group: plan.group,
            direct,
            points: plan.points,
            slots: slots.clamp(1, u64::from(u32::MAX)) as u32,
            feed,
            expanded: feed == Feed::Chunks && plan.layout.expanded(),
        }
    }

    /// Number of slots.
    pub(crate) fn slots(&self) -> usize {
        self.key.slots as usize
    }

    fn cap(&self) -> u64 {
        u64::from(self.key.points)
    }

    /// Where a scalar upload buffer holds its pass's parameter block.
    fn params_at(&self) -> u64 {
        match self.key.feed {
            Feed::Params => 0,
            _ => self.key.group.scalar_bytes() * self.cap(),
        }
    }

    /// Converts `input` into `slot`'s upload buffer once that is free (scalars with
    /// their parameter block). `turn` picks which of a resident slot's two buffers
    /// (alternate submissions use alternate buffers); streamed slots have one per input
    /// and ignore it. Returns the time spent writing.
    pub(crate) async fn stage<C: Group>(
        &self,
        dev: &Device,
        slot: usize,
        turn: usize,
        input: Input<'_, C>,
    ) -> Result<std::time::Duration> {
        let up = self.upload(slot, turn, input)?;
        let extra = self.extra(&input);
        let uploads = dev.msm_state()?.uploads();
        up.fill(
            dev,
            input.bytes(),
            |dst| Self::convert(&uploads, input, dst),
            extra,
        )
        .await
    }

    /// Waits until `slot`'s upload buffer for `input` (of `turn`, as in [`Arena::stage`])
    /// is free, so that [`Arena::stage_now`] writes it.
    pub(crate) async fn ready<C: Group>(
        &self,
        dev: &Device,
        slot: usize,
        turn: usize,
        input: Input<'_, C>,
    ) -> Result<()> {
        self.upload(slot, turn, input)?.ready(dev).await
    }

    /// [`Arena::stage`] without waiting: `None` when the upload buffer is not free yet.
    pub(crate) fn stage_now<C: Group>(
        &self,
        dev: &Device,
        slot: usize,
        turn: usize,
        input: Input<'_, C>,
    ) -> Option<Result<std::time::Duration>> {
        let up = self.upload(slot, turn, input).ok()?;
        let uploads = match dev.msm_state() {
            Ok(s) => s.uploads(),
            Err(e) => return Some(Err(e)),
        };
        up.is_mapped().then(|| {
            up.write(
                input.bytes(),
                |dst| Self::convert(&uploads, input, dst),
                self.extra(&input),
            )
        })
    }

    /// What an upload buffer holds beyond the input: a scalar buffer's parameter block
    /// (at [`Arena::params_at`]).
    fn extra<'i, C: Group>(&self, input: &'i Input<'_, C>) -> Option<(u64, &'i [u8])> {
        match input {
            Input::Scalars(_, params) | Input::Params(params) => {
                Some((self.params_at(), bytemuck::bytes_of(params)))
            }
            Input::Bases(_) => None,
        }
    }

    /// Converts `input` into `dst`, its device layout, on the device's upload threads
    /// or else on rayon's global pool.
    fn convert<C: Group>(uploads: &Uploads, input: Input<'_, C>, dst: wgpu::WriteOnly<'_, [u8]>) {
        let spread = uploads.spread;
        upload::on_pool(uploads.pool.as_deref(), dst, move |dst| match input {
            Input::Scalars(s, _) => upload::fill_scalars::<C>(dst, s, spread),
            Input::Bases(b) => upload::fill_bases(dst, b, spread),
            Input::Params(_) => {}
        });
    }

    /// Records the copy of `slot`'s staged `input` into its slot buffer unless it is
    /// read in place (and the scalars' parameter block, and for bases the reset of the
    /// on-curve flag, either way).
    pub(crate) fn copy_staged<C: Group>(
        &self,
        enc: &mut wgpu::CommandEncoder,
        slot: usize,
        turn: usize,
        input: Input<'_, C>,
    ) -> Result<()> {
        let up = self.upload(slot, turn, input)?;
        let s = slot as u64;
        match input {
            Input::Scalars(..) | Input::Params(_) => {
                if let Some(scalars) = &self.scalars {
                    up.copy_to(
                        enc,
                        0,
                        scalars,
                        self.key.group.scalar_bytes() * self.cap() * s,
                        input.bytes(),
                    );
                }
                let size = std::mem::size_of::<Params>() as u64;
                up.copy_to(enc, self.params_at(), &self.params, PARAMS_SLOT * s, size);
            }
            Input::Bases(_) => {
                let c = self.chunks.as_ref().ok_or_else(no_chunks)?;
                if let Some(bases) = &c.bases {
                    up.copy_to(
                        enc,
                        0,
                        bases,
                        self.key.group.base_bytes() * self.cap() * s,
                        input.bytes(),
                    );
                }
                enc.copy_buffer_to_buffer(&self.flag_reset, 0, &c.flags, FLAG_SLOT * s, 4);
            }
        }
        Ok(())
    }

    /// Maps `slot`'s upload buffer of `input`'s kind (and `turn`) again once submission
    /// `index` (the last that reads it) is done.
    pub(crate) fn recycle<C: Group>(
        &self,
        slot: usize,
        turn: usize,
        input: Input<'_, C>,
        index: wgpu::SubmissionIndex,
    ) {
        if let Ok(up) = self.upload(slot, turn, input) {
            up.recycle(index);
        }
    }

    fn upload<C: Group>(&self, slot: usize, turn: usize, input: Input<'_, C>) -> Result<&Staging> {
        self.upload_of(slot, turn, input.which())
    }

    /// The upload buffer of `slot` (and `turn`) for scalars (`which` 0) or bases (1).
    fn upload_of(&self, slot: usize, turn: usize, which: usize) -> Result<&Staging> {
        let i = match self.key.feed {
            Feed::Chunks => 2 * slot + which,
            Feed::Scalars | Feed::Params if which == 0 => (turn % 2) * self.slots() + slot,
            Feed::Scalars | Feed::Params => return Err(no_chunks()),
        };
        self.uploads.get(i).ok_or_else(no_chunks)
    }

    /// The parameter block of `slot`.
    pub(crate) fn params(&self, slot: usize) -> wgpu::BufferBinding<'_> {
        let size = std::mem::size_of::<Params>() as u64;
        range(&self.params, PARAMS_SLOT * slot as u64, size)
    }

    /// The first `n` scalars of `slot` (staged at `turn`): in its slot buffer, or in
    /// the upload buffer when read in place.
    pub(crate) fn scalars(
        &self,
        slot: usize,
        turn: usize,
        n: usize,
    ) -> Result<wgpu::BufferBinding<'_>> {
        let len = self.key.group.scalar_bytes() * n as u64;
        Ok(match &self.scalars {
            Some(b) => range(
                b,
                self.key.group.scalar_bytes() * self.cap() * slot as u64,
                len,
            ),
            None => self.upload_of(slot, turn, 0)?.binding(len),
        })
    }

    /// The first `n` bases of `slot` (in its slot buffer, or in the upload buffer when
    /// read in place) and its flag word; streamed arenas only.
    pub(crate) fn chunk(
        &self,
        slot: usize,
        n: usize,
    ) -> Result<(wgpu::BufferBinding<'_>, wgpu::BufferBinding<'_>)> {
        let c = self.chunks.as_ref().ok_or_else(no_chunks)?;
        let len = self.key.group.base_bytes() * n as u64;
        let bases = match &c.bases {
            Some(b) => range(
                b,
                self.key.group.base_bytes() * self.cap() * slot as u64,
                len,
            ),
            None => self.upload_of(slot, 0, 1)?.binding(len),
        };
        Ok((bases, range(&c.flags, FLAG_SLOT * slot as u64, FLAG_SLOT)))
    }

    /// The expanded form of a streamed pass's first `n` bases (a base and its image a
    /// point), where the arena expands them.
    pub(crate) fn expanded(&self, n: usize) -> Result<wgpu::BufferBinding<'_>> {
        let c = self.chunks.as_ref().ok_or_else(no_chunks)?;
        let b = c.expanded.as_ref().ok_or_else(no_chunks)?;
        Ok(range(b, 0, 2 * self.key.group.base_bytes() * n as u64))
    }
}

/// The error of asking a scalars-only arena for chunk slots.
fn no_chunks() -> Error {
    Error::Gpu {
        context: "msm/stream".into(),
        message: "input arena without chunk slots".into(),
    }
}
