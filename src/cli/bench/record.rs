//! What `bench` records: one row per (device or cluster, mode, size), and where it
//! came from.

use wgpu_msm::{Device, Error, MsmConfig, Result};

/// One measured (device, size, mode).
#[derive(serde::Serialize)]
pub(super) struct Record {
    pub(super) date: String,
    pub(super) device: String,
    pub(super) backend: String,
    pub(super) driver: String,
    pub(super) arith: String,
    pub(super) mode: &'static str,
    /// MSMs per timed call (`batch` and `singles` rows; times are per MSM).
    pub(super) batch: Option<usize>,
    /// `MsmConfig::memory_budget` of the row, bytes.
    pub(super) memory_budget: Option<u64>,
    pub(super) log2_n: u32,
    pub(super) n: usize,
    pub(super) window_bits: Option<u32>,
    pub(super) median_ms: f64,
    pub(super) min_ms: f64,
    pub(super) points_per_s: f64,
    pub(super) arkworks_ms: Option<f64>,
    pub(super) speedup: Option<f64>,
    pub(super) verified: bool,
    /// Device time of the MSM's stages from timestamp queries (resident runs with
    /// `--profile`, where the adapter has timestamps).
    pub(super) gpu_ms: Option<f64>,
}

/// Where a record came from: device name, backend, driver, multiply path.
pub(super) struct Source {
    pub(super) device: String,
    pub(super) backend: String,
    pub(super) driver: String,
    pub(super) arith: String,
}

impl Source {
    /// Records of device `d` under `cfg`.
    pub(super) fn device(d: &Device, cfg: &MsmConfig) -> Result<Source> {
        let info = d.info();
        Ok(Source {
            device: info.name.clone(),
            backend: info.backend.to_string(),
            driver: info.driver.clone(),
            arith: d.resolve_arithmetic(cfg.arithmetic)?.name().into(),
        })
    }

    /// Records of a cluster shown as `label`, over `devices` under `cfg`.
    pub(super) fn cluster(label: &str, devices: &[Device], cfg: &MsmConfig) -> Result<Source> {
        let first = devices.first().ok_or(Error::NoDevice {
            hint: "bench needs a device".into(),
        })?;
        Ok(Source {
            device: label.to_string(),
            backend: String::new(),
            driver: String::new(),
            arith: first.resolve_arithmetic(cfg.arithmetic)?.name().into(),
        })
    }
}

impl Record {
    /// A record from a timing `(median ms, min ms, verified)` of `n` = 2^lg points.
    pub(super) fn new(
        date: &str,
        src: &Source,
        mode: &'static str,
        lg: u32,
        window_bits: Option<u32>,
        t: (f64, f64, bool),
        ark_ms: Option<f64>,
    ) -> Record {
        let (med, min, ok) = t;
        let n = 1usize << lg;
        Record {
            date: date.to_string(),
            device: src.device.clone(),
            backend: src.backend.clone(),
            driver: src.driver.clone(),
            arith: src.arith.clone(),
            mode,
            batch: None,
            memory_budget: None,
            log2_n: lg,
            n,
            window_bits,
            median_ms: med,
            min_ms: min,
            points_per_s: n as f64 / (med / 1e3),
            arkworks_ms: ark_ms,
            speedup: ark_ms.map(|a| a / med),
            verified: ok,
            gpu_ms: None,
        }
    }
}

impl Record {
    /// The mode as the table shows it: `batch/16`, `16x single`, `oneshot*` (budget).
    pub(super) fn label(&self) -> String {
        match (self.mode, self.batch, self.memory_budget) {
            ("batch", Some(k), _) => format!("batch/{k}"),
            ("singles", Some(k), _) => format!("{k}x single"),
            (m, _, budget) => mode_label(m, budget),
        }
    }
}

/// A mode as the tables show it: marked `*` where its row ran under a memory budget
/// (the footnotes of `report::print_budget_notes` say which).
pub(super) fn mode_label(mode: &str, budget: Option<u64>) -> String {
    match budget {
        Some(_) => format!("{mode}*"),
        None => mode.to_string(),
    }
}
