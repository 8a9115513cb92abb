//! `plot` and `bench --plot`: SVG plots of MSM time (ms, log scale) against log2 of the
//! size, one per mode (`oneshot`, `resident`, `device`). Each plot has a line per device
//! or cluster, arkworks' CPU times from the same run, and sppark's (CUDA) published
//! figures as a reference.
//!
//! The rows are those `bench` records: read from `bench --json` files or from the table
//! `bench` prints (its saved output), or handed over by `bench --plot` itself.

use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use wgpu_msm::{Error, Result};

/// Arguments of `plot`.
#[derive(clap::Args)]
pub(crate) struct PlotArgs {
    /// Files of rows, repeatable: `bench --json` output, or the text `bench` printed
    /// (its table). A device's time at a size comes from the first file that has it;
    /// later files fill in only the sizes earlier ones lack.
    #[arg(long = "input", alias = "json", required = true)]
    inputs: Vec<PathBuf>,
    /// Folder the SVGs are written to (created if missing).
    #[arg(long, default_value = "plots")]
    out: PathBuf,
    /// Leave out devices whose name contains any of these (comma-separated), e.g.
    /// `cluster of 1,+ cpu`.
    #[arg(long, value_delimiter = ',')]
    skip: Vec<String>,
}

/// One timed (device, mode, size), as `bench` records it; fields the plots do not use
/// are ignored.
#[derive(serde::Deserialize)]
pub(crate) struct Row {
    #[serde(default)]
    date: String,
    device: String,
    mode: String,
    log2_n: u32,
    median_ms: f64,
    #[serde(default)]
    arkworks_ms: Option<f64>,
    /// Rows of a batch or under a memory budget are not plotted.
    #[serde(default)]
    batch: Option<usize>,
    #[serde(default)]
    memory_budget: Option<u64>,
}

/// The modes plotted: (mode as `bench` names it, file name, title).
const MODES: [(&str, &str, &str); 3] = [
    (
        "oneshot",
        "oneshot.svg",
        "one-shot: host bases and scalars in, result out",
    ),
    (
        "resident",
        "resident.svg",
        "bases resident, scalars from the host",
    ),
    ("device", "device.svg", "bases and scalars resident"),
];

/// Where the CUDA reference figures come from.
const CUDA_LABEL: &str = "sppark (CUDA), one H200, 2026-11-24";

/// sppark's BN254 G1 MSM on one NVIDIA H200, median ms, as measured beside wgpu-msm on
/// 2026-11-24 and published in the project's issue 30: (mode, log2 n, low, high); low
/// and high differ where the source gives a range over its runs.
const CUDA_H200: [(&str, u32, f64, f64); 12] = [
    ("oneshot", 16, 4.56, 4.56),
    ("oneshot", 20, 25.1, 25.1),
    ("oneshot", 22, 62.0, 78.0),
    ("oneshot", 24, 258.0, 268.0),
    ("resident", 16, 4.36, 4.36),
    ("resident", 20, 15.6, 15.6),
    ("resident", 22, 40.0, 40.0),
    ("resident", 24, 125.0, 125.0),
    ("device", 16, 4.14, 4.14),
    ("device", 20, 13.2, 13.2),
    ("device", 22, 27.4, 27.4),
    ("device", 24, 80.7, 80.7),
];

/// `plot`: reads the inputs and writes one SVG per mode into `--out`.
pub(crate) fn run(args: &PlotArgs) -> Result<bool> {
    let mut sets = Vec::new();
    for p in &args.inputs {
        let text = std::fs::read_to_string(p).map_err(|e| io_error(p, e))?;
        let rows =
            parse(&text).map_err(|e| Error::InvalidConfig(format!("{}: {e}", p.display())))?;
        sets.push(rows);
    }
    let files = draw(&sets, &args.skip, &args.out)?;
    for f in files {
        println!("wrote {}", f.display());
    }
    Ok(true)
}

/// `bench --plot DIR`: the plots of one run's records (serialized as `bench --json`
/// writes them).
pub(crate) fn from_records<T: serde::Serialize>(records: &T, dir: &Path) -> Result<Vec<PathBuf>> {
    let value = serde_json::to_value(records).map_err(|e| Error::InvalidConfig(e.to_string()))?;
    let rows: Vec<Row> =
        serde_json::from_value(value).map_err(|e| Error::InvalidConfig(e.to_string()))?;
    draw(&[rows], &[], dir)
}

/// Rows from `bench --json` output (a JSON array) or from `bench`'s printed table.
fn parse(text: &str) -> std::result::Result<Vec<Row>, String> {
    if text.trim_start().starts_with('[') {
        return serde_json::from_str(text).map_err(|e| e.to_string());
    }
    let rows: Vec<Row> = text.lines().filter_map(table_row).collect();
    if rows.is_empty() {
        return Err("neither JSON rows nor a bench table".into());
    }
    Ok(rows)
}

/// One line of `bench`'s table: `date device arith mode log-n median min arkworks
/// speedup verified`, the device padded to 28 characters and the mode to 11 (a mode
/// label may hold a space: `16x single`). `None` for any other line.
fn table_row(line: &str) -> Option<Row> {
    let date = line.get(..10)?;
    let is_date = date.bytes().enumerate().all(|(i, b)| match i {
        4 | 7 => b == b'-',
        _ => b.is_ascii_digit(),
    });
    if !is_date {
        return None;
    }
    let device = line.get(11..39)?.trim().to_string();
    let mode = line.get(51..62)?.trim().to_string();
    let rest: Vec<&str> = line.get(63..)?.split_whitespace().collect();
    let [log2_n, median, _min, ark, ..] = rest[..] else {
        return None;
    };
    let mut row = Row {
        date: date.to_string(),
        device,
        mode: mode.trim_end_matches('*').to_string(),
        log2_n: log2_n.parse().ok()?,
        median_ms: median.parse().ok()?,
        arkworks_ms: ark.parse().ok(),
        batch: None,
        memory_budget: None,
    };
    // Table labels: `batch/16`, `16x single` (batches), `oneshot*` (under a budget).
    if row.mode.starts_with("batch/") || row.mode.ends_with(" single") {
        row.batch = Some(0);
    }
    if mode.ends_with('*') {
        row.memory_budget = Some(0);
    }
    Some(row)
}

/// One line of a plot: its label and (log2 n, ms) points, with an optional range a
/// point stands for.
struct Series {
    label: String,
    points: Vec<(u32, f64, f64, f64)>,
    style: Style,
}

/// How a series is drawn.
#[derive(Clone, Copy)]
enum Style {
    /// wgpu-msm's rows: a coloured line with dots, the colour the series' index.
    Measured(usize),
    /// arkworks on the CPU: grey, triangles.
    Cpu,
    /// CUDA's reference figures: black, crosses.
    Reference,
}

/// One device's rows of one mode in one set: (device, date, log2 n -> medians).
type SetDevice<'a> = (&'a str, &'a str, BTreeMap<u32, Vec<f64>>);

/// The rows of `mode` as series: one per device or cluster, then arkworks per set (each
/// set's host), then CUDA's reference. A (device, size) comes from the first set that
/// has it, so a later set fills in only sizes the earlier ones lack; rows of one device
/// at one size within a set (several GPUs of one model) are averaged.
fn series_of(sets: &[Vec<Row>], skip: &[String], mode: &str) -> Vec<Series> {
    // (device, date of its first rows, log2 n -> mean ms), in order of appearance.
    let mut devices: Vec<(String, String, BTreeMap<u32, f64>)> = Vec::new();
    let mut cpu: Vec<Series> = Vec::new();
    for rows in sets {
        let keep = |r: &&Row| {
            r.mode == mode
                && r.batch.is_none()
                && r.memory_budget.is_none()
                && !skip
                    .iter()
                    .any(|s| !s.is_empty() && r.device.contains(s.as_str()))
        };
        // (device, date, log2 n -> this set's times), in order of appearance.
        let mut here: Vec<SetDevice> = Vec::new();
        let mut ark: BTreeMap<u32, f64> = BTreeMap::new();
        for r in rows.iter().filter(keep) {
            let i = match here.iter().position(|d| d.0 == r.device) {
                Some(i) => i,
                None => {
                    here.push((&r.device, &r.date, BTreeMap::new()));
                    here.len() - 1
                }
            };
            here[i].2.entry(r.log2_n).or_default().push(r.median_ms);
            if let Some(a) = r.arkworks_ms {
                ark.entry(r.log2_n).or_insert(a);
            }
        }
        if !ark.is_empty() {
            // The host is named by the set's first GPU (cluster rows name no host).
            let host = here
                .iter()
                .find(|d| !d.0.starts_with("cluster"))
                .map_or(String::new(), |d| format!(" beside {}", d.0));
            let date = here.first().map_or("", |d| d.1);
            cpu.push(Series {
                label: dated(&format!("arkworks (CPU{host})"), date),
                points: ark.iter().map(|(&lg, &ms)| (lg, ms, ms, ms)).collect(),
                style: Style::Cpu,
            });
        }
        for (device, date, sizes) in here {
            let i = match devices.iter().position(|d| d.0 == device) {
                Some(i) => i,
                None => {
                    devices.push((device.to_string(), date.to_string(), BTreeMap::new()));
                    devices.len() - 1
                }
            };
            for (lg, ms) in sizes {
                let mean = ms.iter().sum::<f64>() / ms.len() as f64;
                devices[i].2.entry(lg).or_insert(mean);
            }
        }
    }
    let mut out: Vec<Series> = devices
        .into_iter()
        .enumerate()
        .map(|(i, (device, date, sizes))| Series {
            label: dated(&device, &date),
            points: sizes.into_iter().map(|(lg, ms)| (lg, ms, ms, ms)).collect(),
            style: Style::Measured(i),
        })
        .collect();
    out.extend(cpu);
    let cuda: Vec<_> = CUDA_H200
        .iter()
        .filter(|c| c.0 == mode)
        .map(|&(_, lg, lo, hi)| (lg, (lo + hi) / 2.0, lo, hi))
        .collect();
    out.push(Series {
        label: CUDA_LABEL.into(),
        points: cuda,
        style: Style::Reference,
    });
    out
}

/// `label, date` (the label alone where the rows carry no date).
fn dated(label: &str, date: &str) -> String {
    if date.is_empty() {
        label.to_string()
    } else {
        format!("{label}, {date}")
    }
}

/// Colours of the measured series, in turn: distinct on white, none pale.
const COLOURS: [RGBColor; 8] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

/// Writes one SVG per mode that has rows into `dir`; returns the files written.
fn draw(sets: &[Vec<Row>], skip: &[String], dir: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let mut written = Vec::new();
    for (mode, file, title) in MODES {
        let series = series_of(sets, skip, mode);
        if series.iter().all(|s| matches!(s.style, Style::Reference)) {
            continue;
        }
        let path = dir.join(file);
        draw_one(&path, title, &series)
            .map_err(|e| Error::InvalidConfig(format!("{}: {e}", path.display())))?;
        written.push(path);
    }
    Ok(written)
}

/// The plot of one mode: ms on a log axis against log2 n, the legend at the bottom right
/// (below the lines, which rise to the right).
fn draw_one(
    path: &Path,
    title: &str,
    series: &[Series],
) -> std::result::Result<(), Box<dyn std::error::Error>> {
    let all = || series.iter().flat_map(|s| s.points.iter());
    let lo_x = all().map(|p| p.0).min().unwrap_or(10);
    let hi_x = all().map(|p| p.0).max().unwrap_or(24);
    let lo_y = all().map(|p| p.2).fold(f64::INFINITY, f64::min);
    let hi_y = all().map(|p| p.3).fold(0.0, f64::max);
    // Whole decades on the time axis, so its labels are 1, 10, 100 ...; one more below
    // the fastest row leaves the legend room under the lines.
    let lo_y = 10f64.powf(lo_y.max(1e-3).log10().floor() - 1.0);
    let hi_y = 10f64.powf(hi_y.max(lo_y * 10.0).log10().ceil());

    let root = SVGBackend::new(path, (900, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("BN254 G1 MSM, {title}"), ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (f64::from(lo_x) - 0.5)..(f64::from(hi_x) + 0.5),
            (lo_y..hi_y).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("points (log2 n)")
        .y_desc("median time, ms (log scale)")
        .x_labels((hi_x - lo_x + 2) as usize)
        .x_label_formatter(&|x| format!("2^{x:.0}"))
        .y_label_formatter(&|y| format!("{y}"))
        .draw()?;

    for s in series {
        let (colour, width) = match s.style {
            Style::Measured(i) => (COLOURS[i % COLOURS.len()].to_rgba(), 2),
            Style::Cpu => (RGBColor(128, 128, 128).to_rgba(), 1),
            Style::Reference => (BLACK.to_rgba(), 2),
        };
        let line: Vec<(f64, f64)> = s.points.iter().map(|p| (f64::from(p.0), p.1)).collect();
        chart
            .draw_series(LineSeries::new(line.clone(), colour.stroke_width(width)))?
            .label(s.label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(width))
            });
        match s.style {
            Style::Measured(_) => {
                chart.draw_series(line.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
            }
            Style::Cpu => {
                chart.draw_series(
                    line.iter()
                        .map(|&p| TriangleMarker::new(p, 4, colour.filled())),
                )?;
            }
            Style::Reference => {
                chart.draw_series(
                    line.iter()
                        .map(|&p| Cross::new(p, 4, colour.stroke_width(2))),
                )?;
                // A vertical bar over the range where the source gives one.
                chart.draw_series(s.points.iter().filter(|p| p.2 < p.3).map(|p| {
                    let x = f64::from(p.0);
                    PathElement::new(vec![(x, p.2), (x, p.3)], colour.stroke_width(2))
                }))?;
            }
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()?;
    root.present()?;
    Ok(())
}

/// An I/O error on `path` as the crate's error.
fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::InvalidConfig(format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_bench_table_lines() {
        let line = "2026-11-23 NVIDIA H200                  wide64     oneshot         20        9.03        8.99        931.4   103.1x     true";
        let r = table_row(line).expect("a table row");
        assert_eq!(r.device, "NVIDIA H200");
        assert_eq!(r.mode, "oneshot");
        assert_eq!(r.log2_n, 20);
        assert_eq!(r.median_ms, 9.03);
        assert_eq!(r.arkworks_ms, Some(931.4));
        let batch = "2026-11-23 NVIDIA H200                  wide64     16x single      18        3.80        3.74            -        -     true";
        let r = table_row(batch).expect("a batch row");
        assert!(r.batch.is_some() && r.arkworks_ms.is_none());
        assert!(table_row("date       device  arith").is_none());
    }
}
