//! Bases resident across a cluster: each device holds one contiguous share (by measured
//! throughput when the cluster has calibrated, else even), or, under
//! [`Strategy::Windows`], a copy of them all; uploaded once, every MSM over them sends
//! only scalars.

use super::{window_split, Cluster, Strategy};
use crate::config::MsmConfig;
use crate::device::Device;
use crate::error::{Error, Result};
use crate::msm::DeviceBases;
use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ff::Zero;

/// One device's share of a [`ClusterBases`].
struct Share {
    device: Device,
    bases: DeviceBases,
    start: usize,
}

/// Bases split across a cluster's devices, each share resident on its device (or
/// copied whole to every device, for a split by windows).
pub struct ClusterBases {
    shares: Vec<Share>,
    len: usize,
    replicated: bool,
}

impl ClusterBases {
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

impl Cluster {
    /// Uploads `bases` across the cluster's devices, one contiguous share each (even
    /// shares; devices of unequal speed get shares in proportion to their calibrated
    /// throughput when [`Cluster::calibrate`] has run). Under [`Strategy::Windows`]
    /// every device gets all of them (as many copies as devices).
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] for a cluster without devices (fake or CPU workers
    /// only); upload errors of any device.
    pub fn upload_bases(&self, bases: &[G1Affine]) -> Result<ClusterBases> {
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
    pub fn msm_with(
        &self,
        bases: &ClusterBases,
        scalars: &[Fr],
        cfg: &MsmConfig,
    ) -> Result<G1Projective> {
        Error::check_lengths(bases.len, scalars.len())?;
        // Per share: its scalars and, for replicated bases, its windows.
        let (c, windows) = window_split(cfg, scalars.len(), bases.shares.len());
        let work: Vec<(&Share, &[Fr], Option<MsmConfig>)> = bases
            .shares
            .iter()
            .zip(windows)
            .filter_map(|(sh, w)| {
                let part = &scalars[sh.start..sh.start + sh.bases.len()];
                if !bases.replicated {
                    return Some((sh, part, None));
                }
                let cfg = MsmConfig {
                    window_bits: Some(c),
                    windows: Some(w?),
                    ..cfg.clone()
                };
                Some((sh, part, Some(cfg)))
            })
            .collect();
        std::thread::scope(|s| {
            let handles: Vec<_> = work
                .iter()
                .map(|(sh, part, own)| {
                    let cfg = own.as_ref().unwrap_or(cfg);
                    s.spawn(move || sh.device.msm_with(&sh.bases, part, cfg))
                })
                .collect();
            let mut total = G1Projective::zero();
            for h in handles {
                total += h.join().map_err(|_| Error::Cancelled)??;
            }
            Ok(total)
        })
    }
}
