//! What clusters learn about hardware, kept beyond one [`Cluster`](super::Cluster): the
//! cost-model samples of the adaptive `Dynamic` and the throughputs of `Weighted`, per
//! (hardware model, arithmetic), in one store for the whole process and in a file beside
//! the pipeline cache. A hardware model is so calibrated once per machine, not once per
//! cluster (calibration takes longer than the MSMs it measures). Only
//! workers whose [`Worker::remember_costs`](super::Worker::remember_costs) says so take
//! part: a name pins down their speed.
//!
//! The file (`cost-models.json`) holds the crate version that wrote it and is ignored
//! when another version finds it (kernels change what a point costs); a file that does
//! not parse is ignored too. Clusters refine what they loaded with every piece they run.

use super::model::Samples;
use crate::config::Arithmetic;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex, MutexGuard, PoisonError};

/// (hardware model, arithmetic): what the remembered values are kept under.
pub(crate) type Key = (String, Arithmetic);

/// The remembered values, and whether they changed since the file was written.
#[derive(Default)]
struct Store {
    samples: HashMap<Key, Samples>,
    throughput: HashMap<Key, f64>,
    dirty: bool,
}

/// The process's store, read from the file on first use.
static STORE: LazyLock<Mutex<Store>> = LazyLock::new(|| {
    let (samples, throughput) = file().map(|f| read(&f)).unwrap_or_default();
    Mutex::new(Store {
        samples,
        throughput,
        dirty: false,
    })
});

fn store() -> MutexGuard<'static, Store> {
    STORE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The file, in the cache directory (`None` where there is none).
fn file() -> Option<PathBuf> {
    crate::device::cache_dir().map(|d| d.join("cost-models.json"))
}

/// The remembered cost-model samples of `key`.
pub(crate) fn samples(key: &Key) -> Option<Samples> {
    store().samples.get(key).copied()
}

/// The remembered throughput (points per second) of `key`.
pub(crate) fn throughput(key: &Key) -> Option<f64> {
    store().throughput.get(key).copied()
}

/// Remembers `samples` for `key`.
pub(crate) fn put_samples(key: Key, samples: Samples) {
    let mut s = store();
    if s.samples.insert(key, samples) != Some(samples) {
        s.dirty = true;
    }
}

/// Remembers `points_per_s` for `key`.
pub(crate) fn put_throughput(key: Key, points_per_s: f64) {
    let mut s = store();
    if s.throughput.insert(key, points_per_s) != Some(points_per_s) {
        s.dirty = true;
    }
}

/// Writes the store to its file when it changed since the last write. Failures are
/// logged and otherwise ignored (the next process calibrates again).
pub(crate) fn save() {
    let mut s = store();
    if !s.dirty {
        return;
    }
    s.dirty = false;
    let Some(file) = file() else {
        return;
    };
    if let Err(e) = write(&file, &s.samples, &s.throughput) {
        log::debug!("could not write {}: {e}", file.display());
    }
}

/// The file's contents.
#[derive(serde::Serialize, serde::Deserialize)]
struct Contents {
    /// The crate version that wrote the file.
    version: String,
    samples: Vec<SamplesEntry>,
    throughput: Vec<ThroughputEntry>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct SamplesEntry {
    model: String,
    arithmetic: Arithmetic,
    samples: Samples,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct ThroughputEntry {
    model: String,
    arithmetic: Arithmetic,
    points_per_s: f64,
}

type Maps = (HashMap<Key, Samples>, HashMap<Key, f64>);

/// The values in `file`; none where it is missing, unreadable, or from another version.
fn read(file: &Path) -> Maps {
    let parsed = std::fs::read(file)
        .ok()
        .and_then(|d| serde_json::from_slice::<Contents>(&d).ok())
        .filter(|c| c.version == env!("CARGO_PKG_VERSION"));
    let Some(c) = parsed else {
        return Maps::default();
    };
    let samples = c
        .samples
        .into_iter()
        .map(|e| ((e.model, e.arithmetic), e.samples))
        .collect();
    let throughput = c
        .throughput
        .into_iter()
        .filter(|e| e.points_per_s.is_finite() && e.points_per_s > 0.0)
        .map(|e| ((e.model, e.arithmetic), e.points_per_s))
        .collect();
    (samples, throughput)
}

/// Writes the values to `file` (through a temporary file and a rename, so that a
/// process reading it meanwhile sees the old or the new contents, never half of one).
fn write(
    file: &Path,
    samples: &HashMap<Key, Samples>,
    throughput: &HashMap<Key, f64>,
) -> std::io::Result<()> {
    let mut c = Contents {
        version: env!("CARGO_PKG_VERSION").into(),
        samples: samples
            .iter()
            .map(|((model, arithmetic), s)| SamplesEntry {
                model: model.clone(),
                arithmetic: *arithmetic,
                samples: *s,
            })
            .collect(),
        throughput: throughput
            .iter()
            .map(|((model, arithmetic), &t)| ThroughputEntry {
                model: model.clone(),
                arithmetic: *arithmetic,
                points_per_s: t,
            })
            .collect(),
    };
    // A stable order, so that equal stores write equal files.
    c.samples.sort_by(|a, b| a.model.cmp(&b.model));
    c.throughput.sort_by(|a, b| a.model.cmp(&b.model));
    let data = serde_json::to_vec_pretty(&c).map_err(std::io::Error::other)?;
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = file.with_extension(format!("json.{}.tmp", std::process::id()));
    std::fs::write(&tmp, data)?;
    std::fs::rename(&tmp, file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_round_trip_and_rejects() {
        let dir = std::env::temp_dir().join(format!("wgpu-msm-remembered-{}", std::process::id()));
        let file = dir.join("cost-models.json");
        assert_eq!(read(&file), Maps::default(), "missing file");
        let mut s = Samples::default();
        s.add(1000, 0.002);
        s.add(4000, 0.005);
        let key = (
            "GPU X [10de:2335] Vulkan 580".to_string(),
            Arithmetic::Wide64,
        );
        let samples = HashMap::from([(key.clone(), s)]);
        let throughput = HashMap::from([(key.clone(), 1.5e8)]);
        write(&file, &samples, &throughput).unwrap();
        let (got_s, got_t) = read(&file);
        assert_eq!(got_s, samples);
        assert_eq!(got_t, throughput);
        assert_eq!(got_s[&key].model(), s.model(), "same cost model");

        // Another version's file, and one that does not parse: ignored.
        let other = std::fs::read_to_string(&file)
            .unwrap()
            .replace(env!("CARGO_PKG_VERSION"), "0.0.0-other");
        std::fs::write(&file, other).unwrap();
        assert_eq!(read(&file), Maps::default(), "other version");
        std::fs::write(&file, b"{ not json").unwrap();
        assert_eq!(read(&file), Maps::default(), "garbage");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
