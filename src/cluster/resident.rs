//! Bases resident across a cluster: each device holds one contiguous share (by measured
//! throughput when the cluster has calibrated, else even), or, under
//! [`Strategy::Windows`], a copy of them all; uploaded once, every MSM over them sends
//! only scalars, or nothing where the scalars are resident too ([`ClusterScalars`]).

use super::run::window_split;
use super::{Cluster, Strategy};
use crate::config::MsmConfig;
use crate::curve::Group;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::msm::plan::Layout;
use crate::msm::{DeviceBases, DeviceScalars};
use ark_ec::short_weierstrass::{Affine, Projective};
use ark_ff::Zero;

/// One device's share of a [`ClusterBases`].
struct Share<C: Group> {
    device: Device,
    bases: DeviceBases<C>,
    start: usize,
}

/// Bases split across a cluster's devices, each share resident on its device (or
/// copied whole to every device, for a split by windows).
pub struct ClusterBases<C: Group = ark_bn254::g1::Config> {
    shares: Vec<Share<C>>,
    len: usize,
    replicated: bool,
}

impl<C: Group> ClusterBases<C> {
    /// Number of bases in all shares.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no bases.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether every device holds all the bases ([`Strategy::Windows`]): MSMs then
    /// split by windows.
    pub fn replicated(&self) -> bool {
        self.replicated
    }

    /// `(device index, first base, bases)` of each share.
    pub fn shares(&self) -> Vec<(usize, usize, usize)> {
        self.shares
            .iter()
            .map(|s| (s.device.index(), s.start, s.bases.len()))
            .collect()
    }
}

/// Scalars resident across a cluster beside a [`ClusterBases`]: each device holds the
/// scalars of its share of the bases (made by [`Cluster::upload_scalars`]).
pub struct ClusterScalars<C: Group = ark_bn254::g1::Config> {
    shares: Vec<DeviceScalars<C>>,
    len: usize,
}

impl<C: Group> ClusterScalars<C> {
    /// Number of scalars in all shares (the bases' count; all of them in each share
    /// where the bases are replicated).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no scalars.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Cluster {
    /// Uploads `bases` across the cluster's devices, one contiguous share each (even
    /// shares; devices of unequal speed get shares in proportion to their calibrated
    /// throughput when [`Cluster::calibrate`] has run). Under [`Strategy::Windows`]
    /// every device gets all of them (as many copies as devices).
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] for a cluster without devices (fake or CPU workers
    /// only); upload errors of any device.
    pub fn upload_bases<C: Group>(&self, bases: &[Affine<C>]) -> Result<ClusterBases<C>> {
        let devices = self.devices();
        if devices.is_empty() {
            return Err(Error::InvalidConfig(
                "upload_bases needs a cluster of devices".into(),
            ));
        }
        if self.resolved_strategy() == Strategy::Windows {
            let shares = devices
                .iter()
                .map(|d| {
                    Ok(Share {
                        device: d.clone(),
                        bases: d.upload_bases(bases)?,
                        start: 0,
                    })
                })
                .collect::<Result<_>>()?;
            return Ok(ClusterBases {
                shares,
                len: bases.len(),
                replicated: true,
            });
        }
        let measured: Option<Vec<f64>> = self
            .throughputs(Default::default())
            .into_iter()
            .take(devices.len())
            .collect();
        let speeds = measured.unwrap_or_else(|| vec![1.0; devices.len()]);
        let total: f64 = speeds.iter().sum();
        let mut shares = Vec::with_capacity(devices.len());
        let mut start = 0usize;
        for (i, d) in devices.iter().enumerate() {
            let end = if i + 1 == devices.len() {
                bases.len()
            } else {
                (start + (bases.len() as f64 * speeds[i] / total).round() as usize).min(bases.len())
            };
            shares.push(Share {
                device: d.clone(),
                bases: d.upload_bases(&bases[start..end])?,
                start,
            });
            start = end;
        }
        Ok(ClusterBases {
            shares,
            len: bases.len(),
            replicated: false,
        })
    }

    /// MSM over bases resident across the cluster: each device computes its share (of
    /// the points, or of the windows when the bases are replicated) from its own thread,
    /// the host adds the results.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`]; any device's error (resident bases cannot move to
    /// another device, so a failed share fails the call).
    pub fn msm_with<C: Group>(
        &self,
        bases: &ClusterBases<C>,
        scalars: &[C::ScalarField],
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
        Error::check_lengths(bases.len, scalars.len())?;
        each_share(bases, cfg, |i, cfg| {
            let sh = &bases.shares[i];
            let part = &scalars[sh.start..sh.start + sh.bases.len()];
            sh.device.msm_with(&sh.bases, part, cfg)
        })
    }

    /// Uploads `scalars` beside `bases`: each device gets the scalars of its share of
    /// the bases (all of them where the bases are replicated), for
    /// [`Cluster::msm_resident`].
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] unless there are as many scalars as bases; upload
    /// errors of any device.
    pub fn upload_scalars<C: Group>(
        &self,
        bases: &ClusterBases<C>,
        scalars: &[C::ScalarField],
    ) -> Result<ClusterScalars<C>> {
        Error::check_lengths(bases.len, scalars.len())?;
        let shares = bases
            .shares
            .iter()
            .map(|sh| {
                let part = &scalars[sh.start..sh.start + sh.bases.len()];
                sh.device.upload_scalars(part)
            })
            .collect::<Result<_>>()?;
        Ok(ClusterScalars {
            shares,
            len: scalars.len(),
        })
    }

    /// MSM of scalars resident across the cluster over the bases beside them: each
    /// device multiplies its own share of both (see [`Device::msm_resident`]), nothing
    /// is sent but parameters, and the host adds the results.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] when `scalars` were not uploaded for bases of this
    /// length and split; [`Error::WrongDevice`] when they were uploaded for other
    /// devices; any device's error.
    pub fn msm_resident<C: Group>(
        &self,
        bases: &ClusterBases<C>,
        scalars: &ClusterScalars<C>,
        cfg: &MsmConfig,
    ) -> Result<Projective<C>> {
        Error::check_lengths(bases.len, scalars.len)?;
        if scalars.shares.len() != bases.shares.len() {
            return Err(Error::LengthMismatch {
                bases: bases.shares.len(),
                scalars: scalars.shares.len(),
            });
        }
        for (b, s) in bases.shares.iter().zip(&scalars.shares) {
            Error::check_lengths(b.bases.len(), s.len())?;
        }
        each_share(bases, cfg, |i, cfg| {
            let sh = &bases.shares[i];
            sh.device.msm_resident(&sh.bases, &scalars.shares[i], cfg)
        })
    }
}

/// Runs `f(share index, its config)` for every share of `bases` that has work, each on
/// a thread of its own (the first on the calling thread), and adds the results.
/// Replicated bases split the windows: each share gets a config for its range of them
/// (and shares left without one sit out).
fn each_share<C: Group, F>(bases: &ClusterBases<C>, cfg: &MsmConfig, f: F) -> Result<Projective<C>>
where
    F: Fn(usize, &MsmConfig) -> Result<Projective<C>> + Sync,
{
    // Bases stored expanded on every device split the windows of the GLV halves (8 of
    // 16 bits for large MSMs, where whole scalars take 15-16 windows of 16-17 bits).
    let glv = Layout::glv_asked(C::ID, cfg) && bases.shares.iter().all(|s| s.bases.expanded());
    let (c, windows) = window_split(C::ID, cfg, bases.len, bases.shares.len(), glv, true);
    let work: Vec<(usize, Option<MsmConfig>)> = windows
        .into_iter()
        .enumerate()
        .take(bases.shares.len())
        .filter_map(|(i, w)| {
            if !bases.replicated {
                return Some((i, None));
            }
            let cfg = MsmConfig {
                window_bits: Some(c),
                windows: Some(w?),
                glv: Some(glv),
                ..cfg.clone()
            };
            Some((i, Some(cfg)))
        })
        .collect();
    let run = |(i, own): &(usize, Option<MsmConfig>)| f(*i, own.as_ref().unwrap_or(cfg));
    let Some((first, rest)) = work.split_first() else {
        return Ok(Projective::<C>::zero());
    };
    std::thread::scope(|s| {
        // The first share runs on the calling thread, which would only wait otherwise:
        // one thread fewer to start per MSM (as the scheduler does, `schedule.rs`).
        let handles: Vec<_> = rest.iter().map(|w| s.spawn(move || run(w))).collect();
        let mut total = run(first)?;
        for h in handles {
            total += h.join().map_err(|_| Error::Cancelled)??;
        }
        Ok(total)
    })
}
