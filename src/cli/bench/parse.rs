//! Parsers of `bench`'s arguments.

use wgpu_msm::{Error, Result, Strategy};

pub(super) fn parse_sizes(s: &str) -> Result<Vec<u32>> {
    let max = crate::cli::MAX_LOG_SIZE;
    let bad = || {
        Error::InvalidConfig(format!(
            "bad --sizes {s:?}: use 10..24 or 10,12,16, sizes 0 to {max}"
        ))
    };
    let sizes: Vec<u32> = if let Some((a, b)) = s.split_once("..") {
        let a: u32 = a.trim().parse().map_err(|_| bad())?;
        let b: u32 = b
            .trim_start_matches('=')
            .trim()
            .parse()
            .map_err(|_| bad())?;
        (a..=b.min(max + 1)).collect()
    } else {
        s.split(',')
            .map(|t| t.trim().parse().map_err(|_| bad()))
            .collect::<Result<_>>()?
    };
    if sizes.is_empty() || sizes.iter().any(|&lg| lg > max) {
        return Err(bad());
    }
    Ok(sizes)
}

/// Strategies from `auto,even,windows`.
pub(super) fn parse_strategies(s: &str) -> std::result::Result<Vec<Strategy>, String> {
    s.split(',')
        .map(|t| match t.trim().to_lowercase().as_str() {
            "auto" => Ok(Strategy::Auto),
            "even" => Ok(Strategy::Even),
            "weighted" => Ok(Strategy::Weighted),
            "dynamic" => Ok(Strategy::Dynamic),
            "windows" => Ok(Strategy::Windows),
            other => Err(format!("unknown strategy {other:?}")),
        })
        .collect()
}

/// Bytes from `1073741824`, `1GiB`, `512MiB` or `64KiB`.
pub(super) fn parse_bytes(s: &str) -> std::result::Result<u64, String> {
    let t = s.trim();
    let (num, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let shift = match unit.trim() {
        "" | "B" => 0,
        "KiB" | "K" => 10,
        "MiB" | "M" => 20,
        "GiB" | "G" => 30,
        u => {
            return Err(format!(
                "unknown unit {u:?} in {s:?}: use B, KiB, MiB or GiB"
            ))
        }
    };
    let n: u64 = num.parse().map_err(|_| format!("bad byte count {s:?}"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("{s:?} does not fit 64 bits"))
}
