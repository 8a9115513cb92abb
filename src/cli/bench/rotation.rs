//! `--rotate`: sizes taken in turn rather than one after another, so that each MSM
//! follows one of another size (as in a prover).

use super::measure::{median_min, reference};
use super::record::{Record, Source};
use super::BenchArgs;
use ark_bn254::{Fr, G1Affine};
use ark_ec::CurveGroup;
use std::time::Instant;
use wgpu_msm::testing::parity_inputs;
use wgpu_msm::{Device, MsmConfig, Result};

/// `--rotate`: one-shot MSMs of every size in turn on each device, `repeat` timed
/// rounds after an untimed one; one `rotate` record per (device, size).
pub(super) fn rotation(
    args: &BenchArgs,
    devices: &[Device],
    table: &[G1Affine],
    sizes: &[u32],
    cfg: &MsmConfig,
    date: &str,
    records: &mut Vec<Record>,
) -> Result<()> {
    let inputs: Vec<(u32, Vec<G1Affine>, Vec<Fr>, G1Affine)> = sizes
        .iter()
        .map(|&lg| {
            let (b, s) = parity_inputs(table, 1usize << lg);
            let want = reference(lg, &b, &s)?;
            Ok((lg, b, s, want))
        })
        .collect::<Result<_>>()?;
    for d in devices {
        let src = Source::device(d, cfg)?;
        let mut ms = vec![Vec::new(); inputs.len()];
        let mut ok = vec![true; inputs.len()];
        for round in 0..=args.repeat.max(1) {
            for (k, (_, b, s, want)) in inputs.iter().enumerate() {
                let t = Instant::now();
                let r = d.msm(b, s, cfg)?;
                let took = t.elapsed().as_secs_f64() * 1e3;
                ok[k] &= r.into_affine() == *want;
                if round > 0 {
                    ms[k].push(took);
                }
            }
        }
        for (k, (lg, ..)) in inputs.iter().enumerate() {
            let (med, min) = median_min(&mut ms[k]);
            let t = (med, min, ok[k]);
            records.push(Record::new(date, &src, "rotate", *lg, args.window, t, None));
        }
    }
    Ok(())
}
