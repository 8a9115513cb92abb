//! # wgpu-msm
//!
//! Multi-scalar multiplication over BN254 and BLS12-381, G1 and G2, on every GPU a
//! machine has (NVIDIA, AMD, Intel, Apple, software Vulkan, and the browser's WebGPU),
//! through wgpu, with arkworks types in and out: the arkworks types of a call pick its
//! group ([`curve::Group`]).
//!
//! ```no_run
//! use ark_std::UniformRand;
//! let mut rng = ark_std::test_rng();
//! let bases: Vec<ark_bn254::G1Affine> = (0..1000).map(|_| ark_bn254::G1Affine::rand(&mut rng)).collect();
//! let scalars: Vec<ark_bn254::Fr> = (0..1000).map(|_| ark_bn254::Fr::rand(&mut rng)).collect();
//! let devices = wgpu_msm::Device::all()?;
//! let r = devices[0].msm(&bases, &scalars, &wgpu_msm::MsmConfig::default())?;
//! # Ok::<(), wgpu_msm::Error>(())
//! ```
//!
//! Modules: [`device`] (one device per GPU, selection, ICICLE-style active device),
//! [`curve`] (the supported groups), [`config`] (per-call options), [`mod@msm`] (the single-device pipeline), [`shader`]
//! (WGSL assembly from arkworks parameters), [`error`].
#![deny(missing_docs)]

// Several devices and CPU workers on threads: native only (a browser has one adapter).
#[cfg(not(target_arch = "wasm32"))]
pub mod cluster;
pub mod config;
pub mod curve;
pub mod device;
pub mod error;
pub mod host;
pub mod msm;
pub mod opcheck;
pub mod shader;
pub mod testing;
pub mod throughput;
pub(crate) mod time;

#[cfg(not(target_arch = "wasm32"))]
pub use cluster::{
    Cluster, ClusterBases, ClusterConfig, ClusterGroup, ClusterReport, ClusterScalars, CpuWorker,
    Strategy, Worker, WorkerReport,
};
pub use config::{Arithmetic, MsmConfig, MulPath};
pub use curve::{Group, GroupId};
#[cfg(not(target_arch = "wasm32"))]
pub use device::{active_device, device_count, run_on_device, set_device};
pub use device::{Device, DeviceInfo};
pub use error::{Error, Result};
#[cfg(not(target_arch = "wasm32"))]
pub use msm::msm;
pub use msm::{
    DeviceBases, DeviceScalars, DirectUploads, PassCapacity, StageProfile, TimelineEvent, Tuning,
};

/// The rust code blocks of README.md and docs/guide.md, compiled as doctests so they
/// stay in step with the API (those that need a GPU are `no_run`: built, not run).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
#[doc = include_str!("../docs/guide.md")]
pub struct ReadmeDoctests;
