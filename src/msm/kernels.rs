//! The compiled kernels of one device: one set of pipelines per group, shader kind and
//! multiply path, built on first use with the bind-group layouts each shader declares, through
//! the device's pipeline cache.

use crate::config::MulPath;
use crate::curve::GroupId;
use crate::device::gpu;
use crate::device::pipeline::Kernels;
use crate::device::Device;
use crate::error::Result;
use crate::shader::{self, unroll::Unroll, Fq32, ShaderKind};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Which build of a shader: its group, kind, multiply path, unrolling and Portable32
/// field representation (the last two from the device's `Tuning`).
type Key = (GroupId, ShaderKind, MulPath, Unroll, Fq32);

/// Kernels by shader kind, multiply path and build variant.
#[derive(Default)]
pub(crate) struct KernelCache {
    map: Mutex<HashMap<Key, Arc<Kernels>>>,
}

impl KernelCache {
    /// The kernels of `kind` for `group` and `path`, built with `unroll` and `fq32`,
    /// compiled on first use within `limit` (see `Kernels::build`). In a browser they
    /// must have been built by [`KernelCache::get_async`] before (building waits
    /// there); else this is an [`Error::InvalidConfig`](crate::error::Error::InvalidConfig).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn get(
        &self,
        dev: &Device,
        group: GroupId,
        kind: ShaderKind,
        path: MulPath,
        unroll: Unroll,
        fq32: Fq32,
        limit: Option<std::time::Duration>,
    ) -> Result<Arc<Kernels>> {
        let key = Self::checked_key(group, kind, path, unroll, fq32)?;
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = map.get(&key) {
            return Ok(k.clone());
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = (dev, limit, &mut map);
            Err(crate::error::Error::InvalidConfig(format!(
                "the {} kernels are not built on this device yet: in a browser they are \
                 built by the async calls (Device::prepare_async, msm_async, ...)",
                Self::label(&key)
            )))
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let entries = Self::entries(kind);
            let entries: Vec<&[wgpu::BindGroupLayoutEntry]> =
                entries.iter().map(Vec::as_slice).collect();
            let label = Self::label(&key);
            let kind = key.1;
            let t = crate::time::Instant::now();
            let k = Arc::new(Self::keep_waves(
                dev,
                &key,
                Kernels::build(
                    dev.wgpu_device(),
                    dev.name(),
                    &label,
                    &Self::source(dev, &key),
                    matches!(
                        kind,
                        ShaderKind::Msm | ShaderKind::CheckBases | ShaderKind::ExpandBases
                    ),
                    &entries,
                    &kind.entry_points(),
                    dev.inner.pipeline_cache.get(),
                    limit,
                )?,
            ));
            log::info!("compiled {label} in {:.2?}", t.elapsed());
            dev.inner.pipeline_cache.save();
            map.insert(key, k.clone());
            Ok(k)
        }
    }

    /// [`KernelCache::get`] in a browser: builds the kernels without blocking (see
    /// `Kernels::build_async`) when they are not built yet.
    #[cfg(target_arch = "wasm32")]
    pub(crate) async fn get_async(
        &self,
        dev: &Device,
        group: GroupId,
        kind: ShaderKind,
        path: MulPath,
        unroll: Unroll,
        fq32: Fq32,
    ) -> Result<Arc<Kernels>> {
        let key = Self::checked_key(group, kind, path, unroll, fq32)?;
        if let Some(k) = self.map.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(k.clone());
        }
        let entries = Self::entries(kind);
        let entries: Vec<&[wgpu::BindGroupLayoutEntry]> =
            entries.iter().map(Vec::as_slice).collect();
        let label = Self::label(&key);
        let kind = key.1;
        let t = crate::time::Instant::now();
        let k = Arc::new(Self::keep_waves(
            dev,
            &key,
            Kernels::build_async(
                dev.wgpu_device(),
                dev.name(),
                &label,
                &Self::source(dev, &key),
                &entries,
                &kind.entry_points(),
            )
            .await?,
        ));
        log::info!("compiled {label} in {:.2?}", t.elapsed());
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        Ok(map.entry(key).or_insert(k).clone())
    }

    /// The WGSL of the build `key` names for `dev` (its reduction trees sized to the
    /// device's workgroup memory, their additions shared by warps only on GPUs).
    fn source(dev: &Device, key: &Key) -> String {
        let &(group, kind, path, unroll, fq32) = key;
        shader::source_for_device(
            group,
            kind,
            path,
            unroll,
            fq32,
            dev.info().max_workgroup_storage,
            dev.info().software,
        )
    }

    /// [`KernelCache::key`] of a shader `group` has; else an
    /// [`Error::InvalidConfig`](crate::error::Error::InvalidConfig).
    fn checked_key(
        group: GroupId,
        kind: ShaderKind,
        path: MulPath,
        unroll: Unroll,
        fq32: Fq32,
    ) -> Result<Key> {
        if !kind.exists_for(group) {
            return Err(crate::error::Error::InvalidConfig(format!(
                "{group} has no {kind:?} shader"
            )));
        }
        Ok(Self::key(group, kind, path, unroll, fq32))
    }

    /// The cache key of a build: builds that give the same source share one.
    fn key(group: GroupId, kind: ShaderKind, path: MulPath, unroll: Unroll, fq32: Fq32) -> Key {
        // A shader without arithmetic is built once, whichever path asks for it.
        let path = if kind.uses_arithmetic() {
            path
        } else {
            MulPath::Portable32
        };
        // A group without small limbs builds the same source whatever `fq32` asks.
        let fq32 = if group.has_small_limbs() {
            fq32
        } else {
            Fq32::Words
        };
        // A shader without arithmetic is the same for every group.
        let group = if kind.uses_arithmetic() {
            group
        } else {
            GroupId::Bn254G1
        };
        (group, kind, path, unroll, fq32)
    }

    /// `k` (built for `key`) with the name its accumulation's wave size is kept under
    /// and the size remembered for it on this adapter (MSM kernels only: the others
    /// have no accumulation).
    fn keep_waves(dev: &Device, key: &Key, mut k: Kernels) -> Kernels {
        if key.1 == ShaderKind::Msm {
            let (_, _, _, unroll, fq32) = key;
            let name = format!("{} {unroll:?} {fq32:?}", Self::label(key));
            k.most_running = super::waves::remembered(dev.info(), &name).into();
            k.waves_kept_as = Some(name);
        }
        k
    }

    /// The label of a build (logs, captures and errors name it).
    fn label(key: &Key) -> String {
        let (group, kind, path, _, _) = key;
        match group {
            // BN254 G1 keeps its labels (logs and captures name them).
            GroupId::Bn254G1 => format!("{}/{:?}", path.name(), kind),
            g => format!("{}/{}/{:?}", g.name(), path.name(), kind),
        }
        .to_lowercase()
    }

    /// The bind group layouts a shader kind declares.
    fn entries(kind: ShaderKind) -> Vec<Vec<wgpu::BindGroupLayoutEntry>> {
        match kind {
            ShaderKind::Msm => {
                let mut v = vec![
                    gpu::uniform_entry(0, false),
                    gpu::storage_entry(1, true),
                    gpu::storage_entry(2, true),
                ];
                v.extend((3..9).map(|b| gpu::storage_entry(b, false)));
                // Group 1: the fold step, one 256-byte slot per step (dynamic offset).
                vec![v, vec![gpu::uniform_entry(0, true)]]
            }
            ShaderKind::CheckBases => {
                vec![vec![
                    gpu::storage_entry(0, true),
                    gpu::storage_entry(1, false),
                ]]
            }
            // The bases, their on-curve flag, the expanded bases.
            ShaderKind::ExpandBases => {
                vec![vec![
                    gpu::storage_entry(0, true),
                    gpu::storage_entry(1, false),
                    gpu::storage_entry(2, false),
                ]]
            }
            // The pass's parameters, the bucket counts, the fold steps' dispatch sizes.
            ShaderKind::FoldArgs => vec![vec![
                gpu::uniform_entry(0, false),
                gpu::storage_entry(1, true),
                gpu::storage_entry(2, false),
            ]],
            ShaderKind::TestField
            | ShaderKind::TestCurve
            | ShaderKind::TestFq2
            | ShaderKind::TestG2
            | ShaderKind::BenchArith => vec![vec![
                gpu::storage_entry(0, true),
                gpu::storage_entry(1, true),
                gpu::storage_entry(2, false),
            ]],
        }
    }
}
