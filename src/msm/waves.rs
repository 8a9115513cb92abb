//! The accumulation kernels' wave sizes, kept between processes: the most workgroups of
//! a kernel the device was seen running at once (`Kernels::most_running`, which shapes
//! passes into whole waves: `Params::in_whole_waves`), in one small text file per
//! adapter and driver beside the pipeline cache, so that a process's first MSM with a
//! kernel runs in whole waves too.
//!
//! The file holds a line naming the crate version that wrote it, then one line per
//! kernel build, `<build> <workgroups>`; a file from another version is ignored (the
//! kernels' register use, and so their waves, change with them), and so is a line that
//! does not parse.

use crate::device::DeviceInfo;

/// The first line of a file this version writes.
#[cfg(not(target_arch = "wasm32"))]
fn header() -> String {
    format!("wgpu-msm {}", env!("CARGO_PKG_VERSION"))
}

/// The file of the adapter `info` describes (`None` where there is no cache directory).
#[cfg(not(target_arch = "wasm32"))]
fn file(info: &DeviceInfo) -> Option<std::path::PathBuf> {
    let key = crate::device::adapter_key(info);
    crate::device::cache_dir().map(|d| d.join(format!("{key}.waves")))
}

/// The builds and wave sizes in `text` (a file's contents), empty when it was written
/// by another version.
#[cfg(not(target_arch = "wasm32"))]
fn parse(text: &str) -> Vec<(String, u32)> {
    let mut lines = text.lines();
    if lines.next() != Some(header().as_str()) {
        return Vec::new();
    }
    lines
        .filter_map(|l| {
            let (build, n) = l.rsplit_once(' ')?;
            Some((build.to_string(), n.parse().ok()?))
        })
        .collect()
}

/// The wave size remembered for kernel build `build` on the adapter `info` describes;
/// 0 when none is.
pub(crate) fn remembered(info: &DeviceInfo, build: &str) -> u32 {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(text) = file(info).and_then(|f| std::fs::read_to_string(f).ok()) {
        return parse(&text)
            .into_iter()
            .find(|(b, _)| b == build)
            .map_or(0, |(_, n)| n);
    }
    let _ = (info, build);
    0
}

/// Remembers `workgroups` as the wave size of kernel build `build` on the adapter `info`
/// describes (through a temporary file and a rename; a failure is logged and otherwise
/// ignored). A no-op in a browser.
pub(crate) fn remember(info: &DeviceInfo, build: &str, workgroups: u32) {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(path) = file(info) {
        let mut entries = std::fs::read_to_string(&path)
            .map(|t| parse(&t))
            .unwrap_or_default();
        entries.retain(|(b, _)| b != build);
        entries.push((build.to_string(), workgroups));
        let mut text = header();
        for (b, n) in &entries {
            text.push_str(&format!("\n{b} {n}"));
        }
        text.push('\n');
        let tmp = path.with_extension("waves-tmp");
        let ok = path
            .parent()
            .map(std::fs::create_dir_all)
            .transpose()
            .is_ok()
            && std::fs::write(&tmp, text).is_ok()
            && std::fs::rename(&tmp, &path).is_ok();
        if !ok {
            log::debug!("could not write wave sizes {}", path.display());
        }
    }
    #[cfg(target_arch = "wasm32")]
    let _ = (info, build, workgroups);
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn a_file_from_this_version_parses_and_others_are_ignored() {
        let ours = format!(
            "{}\nbn254-g2/wide64/msm Compact Small 792\nbad line\n",
            header()
        );
        assert_eq!(
            parse(&ours),
            vec![("bn254-g2/wide64/msm Compact Small".to_string(), 792)]
        );
        assert!(parse("wgpu-msm 0.0.0-old\nwide64/msm Compact Small 1056\n").is_empty());
        assert!(parse("").is_empty());
    }
}
