//! Per-call MSM configuration.

/// Which field-multiply implementation the shaders use.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Arithmetic {
    /// `Wide64` where the device has SHADER_INT64, else `Portable32`.
    #[default]
    Auto,
    /// 64-bit products of 32-bit limbs (needs SHADER_INT64).
    Wide64,
    /// 32-bit operations only (16-bit half products), for any WebGPU-class adapter.
    Portable32,
}

/// A resolved multiply path (what `Arithmetic::Auto` became on a device).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum MulPath {
    /// u64 products.
    Wide64,
    /// u32-only products.
    Portable32,
}

impl MulPath {
    /// Short name used in test names and bench ids: `wide64` / `portable32`.
    pub fn name(self) -> &'static str {
        match self {
            MulPath::Wide64 => "wide64",
            MulPath::Portable32 => "portable32",
        }
    }
}

/// Options of one MSM. `None` fields are chosen by the library for the size and device.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MsmConfig {
    /// Multiply path; `Auto` by default.
    pub arithmetic: Arithmetic,
    /// Window width c in bits (2..=22); chosen from the size and group when `None`
    /// (see [`crate::GroupId::max_default_window_bits`]). It sets the number of windows,
    /// W = ceil(bits / c) for the digits' bits (255 or 256 for whole scalars, 128 for
    /// GLV halves); the MSM then spreads those bits evenly over its W windows (widths
    /// ceil(bits / W) and one less), so 17 bits on GLV halves run as eight windows of 16.
    /// A range of `windows` keeps every window c bits wide.
    pub window_bits: Option<u32>,
    /// Most points processed in one pass on the device; inputs beyond it are split
    /// (the device's binding limits always cap it).
    pub chunk_size: Option<usize>,
    /// Cap on the device bytes of one MSM job; `None` means the device's limits. It
    /// counts everything the job holds: the bases it reads (resident bases, 128 bytes
    /// each expanded or 64 plain, count too: see `Device::upload_bases_with`), its
    /// working buffers and its input slots. One-shot MSMs whose bases do not fit are
    /// streamed in chunks. The default width rule takes the widest windows (BN254 G1
    /// from 2^24 points: about 1.7 GB of buckets) only where the budget holds them, so
    /// a budget is also how a GPU with less memory than that keeps narrower windows.
    pub memory_budget: Option<u64>,
    /// Record per-stage GPU times with timestamp queries (where the device has them);
    /// read them with [`crate::Device::last_profile`].
    pub profile: bool,
    /// Compute only the windows in this range (window `w` covers scalar bits
    /// `c*w .. c*(w+1)`, with signed digits): the result is `sum_w 2^(c*w) * S_w` over
    /// those windows, so the results of disjoint ranges covering every window add up to
    /// the MSM. This splits one MSM across devices by windows (a [`crate::Cluster`] does it
    /// under [`crate::Strategy::Windows`]); needs `window_bits`, and a range within
    /// `0..ceil(255 / c)`. [`crate::msm::window_scalars`] gives the same partial sum
    /// through any plain MSM (e.g. arkworks'). With `glv: Some(true)` the windows are
    /// those of the GLV halves (bits `c*w .. c*(w+1)` of k1 and of k2, within
    /// `0..ceil(128 / c)`), a split that only devices compute.
    pub windows: Option<std::ops::Range<u32>>,
    /// Split each scalar k into halves k1 + lambda k2 of 127 bits (the GLV
    /// endomorphism, phi(x, y) = (beta x, y) = lambda (x, y)): the device
    /// sums 2n half-size scalars over the bases and their images, in half the windows,
    /// so the per-window work (bucket reduction, scans, collects) halves. `None` (the
    /// default) uses it for every group (G2's endomorphism:
    /// [`crate::curve::GlvSpec::of_g2_over`]) except under a range of `windows` (which
    /// then counts windows of the whole scalar; `Some(true)` with a range counts
    /// windows of the halves). Resident bases ([`crate::Device::upload_bases`]) are
    /// stored with their images (twice the group's base bytes) unless uploaded with
    /// `glv: Some(false)`.
    pub glv: Option<bool>,
}

impl MsmConfig {
    /// A config forcing the given arithmetic.
    pub fn with_arithmetic(arithmetic: Arithmetic) -> Self {
        MsmConfig {
            arithmetic,
            ..Default::default()
        }
    }
}
