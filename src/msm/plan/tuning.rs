//! How the MSM runs on one device: a [`Tuning`] per device, its defaults derived from
//! what the device is ([`Tuning::for_device`]), optionally overridden by environment
//! variables parsed in one place (`overrides.rs`, [`Tuning::with_env`]), and readable
//! and settable through [`Device::tuning`](crate::device::Device::tuning) and
//! [`Device::set_tuning`](crate::device::Device::set_tuning).
//!
//! The defaults are what measured best on large discrete GPUs (see BENCHMARKS.md and
//! docs/); what differs by device is derived from its [`DeviceInfo`]: a software
//! adapter computes on the host's cores, so its MSMs retire their own submissions and
//! wait for results without polling; the GL backend gets one upload thread (its
//! context is not shared across threads) and rolled limb loops; a device reads uploads
//! in place only where it may bind mappable buffers as storage, and sizes its fold
//! steps itself only where it takes indirect dispatches.

use crate::device::DeviceInfo;
use crate::error::{Error, Result};
use crate::shader::{unroll::Unroll, Fq32};

/// What the MSM kernels read straight from the host-visible buffers the host writes
/// one-shot inputs into, skipping the copy into a device buffer. Possible only where
/// the device may bind mappable buffers as storage
/// ([`DeviceInfo::mappable_storage`]). An upload buffer read in place stays busy until
/// its pass is done rather than until its copy is; with two slots the host still fills
/// one while the device computes the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum DirectUploads {
    /// Every upload is copied into a device buffer first.
    #[default]
    None,
    /// Decomposition reads the scalars in place; streamed bases are copied.
    Scalars,
    /// Scalars and streamed bases are read in place (the on-curve check and the
    /// accumulation read the bases from their upload buffer).
    All,
}

impl DirectUploads {
    /// Whether the scalars are read in place.
    pub fn scalars(self) -> bool {
        self != DirectUploads::None
    }

    /// Whether streamed bases are read in place.
    pub fn bases(self) -> bool {
        self == DirectUploads::All
    }
}

/// How the MSM drivers run on one device. Every device has its own
/// ([`Device::tuning`](crate::device::Device::tuning)), so two GPUs of one cluster can
/// differ; defaults come from [`Tuning::for_device`].
///
/// Pass sizes: a one-shot MSM of host bases streams its input in passes; from
/// 2^[`stream_overlap_log2`](Tuning::stream_overlap_log2) points it runs in passes of
/// about n / [`overlap_divisor`](Tuning::overlap_divisor) (2^20 to 2^22 points) even
/// when one would fit, the first holding capacity /
/// 2^[`first_pass_shift`](Tuning::first_pass_shift) points and each later one
/// [`pass_growth_pct`](Tuning::pass_growth_pct) percent of the one before, so that
/// the device starts after a small upload and each later upload hides behind the
/// compute of the passes before it. A single MSM over resident bases with host scalars
/// does the same from 2^[`resident_overlap_log2`](Tuning::resident_overlap_log2)
/// points with its own first pass and growth (its host writes 32 bytes a point, not
/// 96, so its passes can grow faster).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Tuning {
    /// Most threads one upload uses, and the size of the device's upload pool (writes
    /// into host-visible memory run at a few GB/s per thread). Capped by the host's
    /// cores, and while `k` devices of the process upload from the host at once, by
    /// [`Tuning::host_upload_threads`] / `k`. 0: no upload threads; each upload is
    /// written on the thread that submits, after its submission (the GL backend's
    /// default: wgpu runs every GL call of an adapter under one context lock, and a
    /// thread that waits more than 6 s for it panics, as an upload thread unmapping
    /// beside a long submission did).
    pub upload_threads: usize,
    /// Upload threads that all the devices uploading from the host at once share: while
    /// `k` devices of the process write host inputs, each of this device's uploads takes
    /// at most this / `k` threads (at least one). The host's writes into device memory
    /// stop scaling near 24 threads in all (docs/tuning.md, "Several GPUs on one host"),
    /// so one or two devices keep `upload_threads` and four get six each.
    pub host_upload_threads: usize,
    /// An upload is cut into (its threads * this) pieces that its threads take in
    /// turn, so that a held-up thread delays the upload less.
    pub upload_split: usize,
    /// A streamed BN254 G1 MSM's first pass holds capacity / 2^this points; other
    /// groups' first pass is smaller still
    /// ([`GroupId::stream_first_pass_extra_shift`](crate::GroupId::stream_first_pass_extra_shift)).
    pub first_pass_shift: u32,
    /// Each pass of a streamed MSM holds this percent of the points of the one before
    /// (more than 100), up to the capacity.
    pub pass_growth_pct: u32,
    /// [`pass_growth_pct`](Tuning::pass_growth_pct) of a streamed MSM whose passes take
    /// the widest windows ([`WIDEST_GLV_BITS`](crate::msm::plan::WIDEST_GLV_BITS): BN254
    /// G1 from 2^24 points). Each of their passes costs more beyond its points (its scan
    /// and scatter over 2^21 buckets a window), so fewer, faster-growing passes pay.
    pub widest_pass_growth_pct: u32,
    /// Large one-shot MSMs run in passes of about n / this many points (within
    /// 2^20..2^22).
    pub overlap_divisor: usize,
    /// One-shot MSMs from 2^this points stream in several passes even when one fits.
    pub stream_overlap_log2: u32,
    /// Each pass of a single resident MSM holds this percent of the points of the one
    /// before (more than 100).
    pub resident_pass_growth_pct: u32,
    /// A single resident MSM's first pass holds capacity / 2^this points, the capacity
    /// holding the whole MSM where the device allows.
    pub resident_first_pass_shift: u32,
    /// Single resident MSMs from 2^this points run in several passes, so that the
    /// scalar upload overlaps compute.
    pub resident_overlap_log2: u32,
    /// A pass aims for 2^this accumulation threads; `None`: the plan's default
    /// (`plan::accumulate_threads_log2`).
    pub accumulate_threads_log2: Option<u32>,
    /// Most points per bucket (pass points / buckets per window) at which a later
    /// pass's bucket heads start from the bucket totals, for the groups whose formulas
    /// are written out (BN254 G1); larger passes leave every piece to the collect step.
    /// A plan whose passes all stay at or below it holds fewer bucket partials
    /// ([`Plan::bucket_partials`](super::Plan::bucket_partials)).
    pub seed_points_per_bucket: u32,
    /// [`Tuning::seed_points_per_bucket`] for the groups whose point formulas run on the
    /// register machine (`GroupId::formulas_on_register_machine`: every group but BN254
    /// G1; default `u32::MAX`, every later pass seeds its heads). Their additions cost
    /// more, and their runs that start from zero accumulate slower than seeded ones, so
    /// loading a total costs less than the piece it spares the collect step
    /// (docs/benchmark-log.md v40).
    pub dear_seed_points_per_bucket: u32,
    /// Idle working sets, input arenas and readback buffers the device keeps (each
    /// kind), so that an MSM of a shape run before allocates nothing. A prover runs
    /// MSMs of a few sizes and modes in turn; too few kept, and each shape evicts the
    /// next one's buffers. An allocation that fails frees them all and is tried once
    /// more.
    pub pool_keep: usize,
    /// What the kernels read straight from the upload buffers.
    pub direct_uploads: DirectUploads,
    /// Whether the device's polling thread retires each MSM submission (wgpu's
    /// bookkeeping of finished work, which can take the driver milliseconds), so that
    /// the MSM's own thread seldom does. Off on software adapters, where a waiting
    /// poller holds up the next submission.
    pub retire_on_poller: bool,
    /// Whether an MSM's host thread polls the device for the results: at once for its
    /// first millisecond, then, if the MSM runs longer, after sleeping until its final
    /// reduction is next (a thread put to sleep wakes up late). Off on software
    /// adapters, where polling would take a core from the computation.
    pub poll_readback: bool,
    /// Whether a one-workgroup kernel sizes each pass's fold steps from its largest
    /// bucket and the host records them as indirect dispatches, so unneeded steps
    /// launch nothing; else every step is dispatched at its full size. Needs indirect
    /// dispatches ([`DeviceInfo::indirect_dispatch`]).
    pub fold_indirect: bool,
    /// Whether passes shape their accumulation into whole waves of the workgroups the
    /// device was seen running at once (`Params::in_whole_waves`; the first MSM of a
    /// kernel measures them and runs as planned).
    pub whole_waves: bool,
    /// Whether passes whose windows and rows allow it scatter through bins
    /// ([`ScatterMode::Bins`](super::ScatterMode::Bins)); else by atomic cursors, as
    /// longer rows do.
    pub scatter_bins: bool,
    /// How far the shader builder unrolls limb loops: `Compact` (optional loops kept)
    /// compiles several times faster than `Full` and runs as fast; the GL backend gets
    /// `Rolled` (every loop kept), with which llvmpipe's cold build peaks at a third
    /// of the memory.
    pub unroll: Unroll,
    /// `unroll` for the G2 groups' kernels. Software adapters get `Rolled`, whose G2
    /// builds also run the point formulas on a register machine
    /// (shaders/curve_tape.wgsl), since SwiftShader and llvmpipe GL do not build G2's
    /// written-out formulas in bounded time and memory (docs/drivers.md). Other devices
    /// keep `unroll`'s `Compact` (G2's point formulas run on the register machine
    /// whatever the unrolling: `GroupId::formulas_on_register_machine`).
    pub g2_unroll: Unroll,
    /// How the Portable32 path holds Fq in registers: 13-bit limbs summed in 32-bit
    /// columns (`Fq32::Small`, a GPU's one-instruction multiply-add; the default), or
    /// 32-bit words (`Fq32::Words`, on software adapters: less code to compile and
    /// faster on llvmpipe; see docs/portable32-log.md).
    pub fq32: Fq32,
    /// Device bytes an MSM call may allocate when its `MsmConfig::memory_budget` is
    /// `None` (on top of resident inputs the caller placed on the device before the
    /// call); `None`: no bound but the device's limits. A software adapter's buffers are
    /// host memory, so its default is a modest share of the host's
    /// ([`software_memory_budget`]); larger MSMs then stream through passes within it.
    pub memory_budget: Option<u64>,
    /// Longest wait for one kernel's pipeline build; past it the build is an
    /// [`Error::KernelBuild`] naming the device and kernel (the driver's compiler thread
    /// is left to finish on its own). `None`: no limit.
    pub kernel_build_limit: Option<std::time::Duration>,
}

/// The default [`Tuning::seed_points_per_bucket`].
pub const SEED_POINTS_PER_BUCKET: u32 = 32;

/// Most bytes [`software_memory_budget`] gives a software adapter.
pub const SOFTWARE_BUDGET_MAX: u64 = 2 << 30;

/// How long a kernel build may take by default ([`Tuning::kernel_build_limit`]):
/// generous, since a cold build of the full unrolled shaders takes a minute on a
/// large GPU and several on a CPU driver.
pub const DEFAULT_KERNEL_BUILD_LIMIT: std::time::Duration = std::time::Duration::from_secs(900);

/// The default [`Tuning::memory_budget`] of a software adapter: a quarter of the host
/// memory available (see [`crate::host::available`]), at most [`SOFTWARE_BUDGET_MAX`];
/// that maximum where the host does not say.
pub fn software_memory_budget() -> u64 {
    crate::host::available().map_or(SOFTWARE_BUDGET_MAX, |a| (a / 4).min(SOFTWARE_BUDGET_MAX))
}

impl Default for Tuning {
    /// The tuning of a hardware GPU that has every feature the MSM uses.
    fn default() -> Tuning {
        Tuning {
            upload_threads: 12,
            host_upload_threads: 24,
            upload_split: 8,
            first_pass_shift: 3,
            pass_growth_pct: 250,
            widest_pass_growth_pct: 400,
            overlap_divisor: 2,
            stream_overlap_log2: 20,
            resident_pass_growth_pct: 400,
            resident_first_pass_shift: 4,
            resident_overlap_log2: 21,
            accumulate_threads_log2: None,
            seed_points_per_bucket: SEED_POINTS_PER_BUCKET,
            dear_seed_points_per_bucket: u32::MAX,
            pool_keep: 6,
            direct_uploads: DirectUploads::All,
            retire_on_poller: true,
            poll_readback: true,
            fold_indirect: true,
            whole_waves: true,
            scatter_bins: true,
            unroll: Unroll::Compact,
            g2_unroll: Unroll::Compact,
            fq32: Fq32::Small,
            memory_budget: None,
            kernel_build_limit: Some(DEFAULT_KERNEL_BUILD_LIMIT),
        }
    }
}

impl Tuning {
    /// How much each pass of a streamed MSM grows over the one before, in percent, for
    /// passes with windows of `window_bits` bits: [`Tuning::widest_pass_growth_pct`] for
    /// the widest windows, else [`Tuning::pass_growth_pct`].
    pub fn stream_growth_pct(&self, window_bits: u32) -> u32 {
        if window_bits >= super::WIDEST_GLV_BITS {
            self.widest_pass_growth_pct
        } else {
            self.pass_growth_pct
        }
    }

    /// The default tuning of the device `info` describes: [`Tuning::default`], with
    /// what the device lacks turned off and what a software adapter or the GL backend
    /// needs (see the module's documentation).
    pub fn for_device(info: &DeviceInfo) -> Tuning {
        let mut t = Tuning::default();
        if info.software {
            t.retire_on_poller = false;
            t.poll_readback = false;
            t.memory_budget = Some(software_memory_budget());
            t.g2_unroll = Unroll::Rolled;
        }
        if info.backend == "Gl" {
            t.upload_threads = 0;
            t.unroll = Unroll::Rolled;
            t.g2_unroll = Unroll::Rolled;
        }
        if !info.mappable_storage {
            t.direct_uploads = DirectUploads::None;
        }
        t.fold_indirect = info.indirect_dispatch;
        t.fq32 = if info.software {
            Fq32::Words
        } else {
            Fq32::Small
        };
        t
    }

    /// The seeding threshold of `group`'s passes: [`Tuning::dear_seed_points_per_bucket`]
    /// for a group whose formulas run on the register machine, else
    /// [`Tuning::seed_points_per_bucket`].
    pub fn seed_points_for(&self, group: crate::curve::GroupId) -> u32 {
        if group.formulas_on_register_machine() {
            self.dear_seed_points_per_bucket
        } else {
            self.seed_points_per_bucket
        }
    }

    /// The unrolling of `group`'s kernels: [`Tuning::g2_unroll`] for a G2 group, else
    /// [`Tuning::unroll`].
    pub fn unroll_for(&self, group: crate::curve::GroupId) -> Unroll {
        if group.degree() == 2 {
            self.g2_unroll
        } else {
            self.unroll
        }
    }

    /// Checks that the device `info` describes can run this tuning.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] for a zero thread count, split, divisor or pool size, a
    /// growth of at most 100%, a reduction width outside 6..=11, in-place uploads on a
    /// device that cannot bind mappable buffers, or indirect fold steps on a device
    /// without indirect dispatches.
    pub fn check(&self, info: &DeviceInfo) -> Result<()> {
        let bad = |why: &str| Err(Error::InvalidConfig(format!("tuning: {why}")));
        if self.upload_split == 0 {
            return bad("upload_split must be at least 1");
        }
        if self.overlap_divisor == 0 || self.pool_keep == 0 {
            return bad("overlap_divisor and pool_keep must be at least 1");
        }
        if self.pass_growth_pct <= 100
            || self.widest_pass_growth_pct <= 100
            || self.resident_pass_growth_pct <= 100
        {
            return bad("pass growths must be more than 100%");
        }
        if self.direct_uploads != DirectUploads::None && !info.mappable_storage {
            return bad(&format!(
                "{} cannot read uploads in place (no MAPPABLE_PRIMARY_BUFFERS)",
                info.name
            ));
        }
        if self.fold_indirect && !info.indirect_dispatch {
            return bad(&format!("{} has no indirect dispatches", info.name));
        }
        Ok(())
    }

    /// Upload threads on this host: [`Tuning::upload_threads`], at most one a core.
    pub(crate) fn upload_threads_on_host(&self) -> usize {
        self.upload_threads.min(crate::host::cores())
    }
}

impl std::fmt::Display for Tuning {
    /// One line of `field value` pairs, as `list` prints it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let threads = self
            .accumulate_threads_log2
            .map_or_else(|| "default".to_string(), |l| format!("2^{l}"));
        write!(
            f,
            "upload_threads {} host_upload_threads {} upload_split {} first_pass_shift {} \
             pass_growth {}% widest_pass_growth {}% \
             overlap_divisor {} stream_overlap 2^{} resident_first_pass_shift {} \
             resident_pass_growth {}% resident_overlap 2^{} accumulate_threads {} \
             seed_per_bucket {} dear_seed_per_bucket {} pool_keep {} \
             direct_uploads {:?} \
             retire_on_poller {} poll_readback {} fold_indirect {} whole_waves {} \
             scatter_bins {} \
             unroll {:?} g2_unroll {:?} \
             fq32 {:?} \
             memory_budget {} kernel_build_limit {}",
            self.upload_threads,
            self.host_upload_threads,
            self.upload_split,
            self.first_pass_shift,
            self.pass_growth_pct,
            self.widest_pass_growth_pct,
            self.overlap_divisor,
            self.stream_overlap_log2,
            self.resident_first_pass_shift,
            self.resident_pass_growth_pct,
            self.resident_overlap_log2,
            threads,
            self.seed_points_per_bucket,
            self.dear_seed_points_per_bucket,
            self.pool_keep,
            self.direct_uploads,
            self.retire_on_poller,
            self.poll_readback,
            self.fold_indirect,
            self.whole_waves,
            self.scatter_bins,
            self.unroll,
            self.g2_unroll,
            self.fq32,
            self.memory_budget
                .map_or_else(|| "none".to_string(), |b| format!("{} MiB", b >> 20)),
            self.kernel_build_limit
                .map_or_else(|| "none".to_string(), |d| format!("{} s", d.as_secs_f64())),
        )
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A device of `backend`, a software adapter or not, for the plan's tests.
    pub(in crate::msm::plan) fn info(software: bool, backend: &str) -> DeviceInfo {
        DeviceInfo {
            index: 0,
            name: "test".into(),
            backend: backend.into(),
            device_type: if software { "Cpu" } else { "DiscreteGpu" }.into(),
            vendor: 0,
            device_id: 0,
            driver: String::new(),
            max_buffer_size: 1 << 30,
            max_storage_binding: 1 << 30,
            max_invocations_per_workgroup: 256,
            max_workgroup_storage: 32 << 10,
            max_workgroups_per_dimension: 65535,
            shader_int64: false,
            subgroup: false,
            timestamp_query: false,
            software,
            mappable_storage: true,
            indirect_dispatch: true,
        }
    }

    #[test]
    fn passes_of_the_widest_windows_grow_faster() {
        use crate::msm::plan::{WIDEST_GLV_BITS, WIDE_GLV_BITS};
        let mut t = Tuning::default();
        assert_eq!(t.stream_growth_pct(WIDE_GLV_BITS), t.pass_growth_pct);
        assert_eq!(
            t.stream_growth_pct(WIDEST_GLV_BITS),
            t.widest_pass_growth_pct
        );
        assert!(t.widest_pass_growth_pct > t.pass_growth_pct);
        t.widest_pass_growth_pct = 100;
        assert!(t.check(&info(false, "Vulkan")).is_err(), "a growth of 100%");
    }

    #[test]
    fn software_adapters_and_gl_get_their_own_defaults() {
        let gpu = Tuning::for_device(&info(false, "Vulkan"));
        assert_eq!(gpu, Tuning::default());
        let cpu = Tuning::for_device(&info(true, "Vulkan"));
        assert!(!cpu.retire_on_poller && !cpu.poll_readback);
        let budget = cpu
            .memory_budget
            .expect("a software adapter's budget is bounded");
        assert!(budget > 0 && budget <= SOFTWARE_BUDGET_MAX, "{budget}");
        if let Some(avail) = crate::host::available() {
            assert!(budget <= avail / 4, "{budget} of {avail}");
        }
        assert_eq!(
            gpu.memory_budget, None,
            "a GPU's default budget is its limits"
        );
        assert_eq!(cpu.pass_growth_pct, gpu.pass_growth_pct);
        let gl = Tuning::for_device(&info(false, "Gl"));
        assert_eq!((gl.upload_threads, gl.unroll), (0, Unroll::Rolled));
        assert_eq!(gpu.unroll, Unroll::Compact, "a GPU's shaders are unchanged");
        assert_eq!(
            (gpu.g2_unroll, gl.g2_unroll, cpu.g2_unroll),
            (Unroll::Compact, Unroll::Rolled, Unroll::Rolled)
        );
        assert_eq!(
            cpu.unroll_for(crate::curve::GroupId::Bn254G1),
            Unroll::Compact
        );
        assert_eq!(
            cpu.unroll_for(crate::curve::GroupId::Bn254G2),
            Unroll::Rolled
        );
        let mut bare = info(false, "Vulkan");
        bare.mappable_storage = false;
        bare.indirect_dispatch = false;
        let t = Tuning::for_device(&bare);
        assert_eq!(t.direct_uploads, DirectUploads::None);
        assert!(!t.fold_indirect);
        assert!(t.check(&bare).is_ok());
        assert!(
            gpu.check(&bare).is_err(),
            "in-place uploads need mappable storage"
        );
    }
}
