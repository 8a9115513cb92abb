//! What the entries of a pass's window rows are: a point with its whole scalar, or
//! two entries a point over bases expanded with their endomorphism images (GLV halves,
//! or whole scalars over expanded bases).

use crate::config::MsmConfig;
use crate::curve::GroupId;

/// What the entries of a pass's window rows are (`LAYOUT_*` in msm_decompose.wgsl).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Layout {
    /// One entry a point: its base as uploaded, its whole scalar.
    Points = 0,
    /// Two entries a point, over bases expanded with their endomorphism images
    /// (`expand_bases.wgsl`): the halves k1, k2 of its scalar, k = k1 + lambda k2
    /// (`shader::glv`). Windows cover 128 bits instead of 255: half as many, each
    /// with twice the entries.
    Glv = 1,
    /// Two entries a point over expanded bases, with whole scalars (the second entry
    /// has no digit): a range of windows over bases stored expanded.
    Pairs = 2,
}

impl Layout {
    /// Entries a point has in each window row.
    pub fn entries_per_point(self) -> u32 {
        match self {
            Layout::Points => 1,
            Layout::Glv | Layout::Pairs => 2,
        }
    }

    /// Whether the bases are read expanded (a base and its image, 128 bytes a point).
    pub fn expanded(self) -> bool {
        self != Layout::Points
    }

    /// Whether `cfg` asks for GLV over `group`: `cfg.glv`, else yes (the default), for
    /// a group with GLV ([`GroupId::has_glv`]); never for the others. Bases uploaded
    /// under `cfg` are stored expanded when it does.
    pub fn glv_asked(group: GroupId, cfg: &MsmConfig) -> bool {
        group.has_glv() && cfg.glv.unwrap_or(true)
    }

    /// Whether an MSM over `group` under `cfg` splits its scalars (GLV): as `cfg.glv`
    /// says, else by default ([`Layout::glv_asked`]) except under a range of windows,
    /// which then counts windows of the whole scalar; never for a group without GLV.
    pub fn glv_wanted(group: GroupId, cfg: &MsmConfig) -> bool {
        group.has_glv()
            && match cfg.glv {
                Some(g) => g,
                None => cfg.windows.is_none() && Layout::glv_asked(group, cfg),
            }
    }

    /// The layout of a one-shot MSM over `group` under `cfg` (its bases are expanded on
    /// the device pass by pass when it splits its scalars).
    pub fn streamed(group: GroupId, cfg: &MsmConfig) -> Layout {
        if Layout::glv_wanted(group, cfg) {
            Layout::Glv
        } else {
            Layout::Points
        }
    }

    /// The layout of an MSM over `group` under `cfg` over resident bases, `expanded`
    /// or not (only bases of a group with GLV are ever stored expanded).
    pub fn resident(group: GroupId, expanded: bool, cfg: &MsmConfig) -> Layout {
        match (expanded, Layout::glv_wanted(group, cfg)) {
            (false, _) => Layout::Points,
            (true, true) => Layout::Glv,
            (true, false) => Layout::Pairs,
        }
    }

    /// Windows of `c` bits BN254 scalars (or their halves) need.
    pub fn window_count(self, c: u32) -> u32 {
        self.window_count_for(crate::curve::GroupId::Bn254G1, c)
    }

    /// Windows of `c` bits the scalars of `group` (or their halves) need.
    pub fn window_count_for(self, group: crate::curve::GroupId, c: u32) -> u32 {
        self.digit_bits(group).div_ceil(c.max(1))
    }

    /// Bits the signed digits of `group`'s scalars (or their halves) cover: the
    /// scalars' bits and one of headroom, into which the top digit's carry goes.
    pub fn digit_bits(self, group: crate::curve::GroupId) -> u32 {
        match self {
            Layout::Glv => crate::shader::glv::GLV_BITS + 1,
            Layout::Points | Layout::Pairs => group.scalar_bits() + 1,
        }
    }
}
