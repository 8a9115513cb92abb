//! One program for both targets: only [`Device::all_async`] and the `*_async` calls of
//! wgpu-msm, checked against arkworks on the same inputs. In the browser the tests and
//! the page run it on the WebGPU adapter; natively the root crate's `tests/portable.rs`
//! compiles this same file (`#[path]`) and runs it on the machine's GPU, so the code
//! is one source for both targets, unchanged.
//!
//! It uses nothing but wgpu-msm, ark-bn254, ark-ec and ark-std (dependencies of both
//! crates), so it compiles in either.

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_std::rand::{rngs::StdRng, SeedableRng};
use ark_std::{One, UniformRand, Zero};
use wgpu_msm::{Device, MsmConfig};

/// A named MSM input: bases and scalars of the same length.
pub struct Case {
    /// What the case exercises.
    pub name: String,
    /// The bases.
    pub bases: Vec<G1Affine>,
    /// The scalars.
    pub scalars: Vec<Fr>,
}

impl Case {
    fn new(name: impl Into<String>, bases: Vec<G1Affine>, scalars: Vec<Fr>) -> Case {
        Case {
            name: name.into(),
            bases,
            scalars,
        }
    }
}

/// `n` random points: 16 random steps `k * G` (random `k`), then a walk that adds a
/// randomly chosen step to the previous point, and one batch conversion to affine. One
/// point addition a point instead of a scalar multiplication, so that 2^20 points take
/// seconds, not minutes, in wasm; the points are distinct and as good as random to
/// the MSM.
pub fn random_bases(n: usize, rng: &mut StdRng) -> Vec<G1Affine> {
    use ark_std::rand::Rng;
    let g = G1Affine::generator();
    let steps: Vec<G1Projective> = (0..16).map(|_| g * Fr::rand(rng)).collect();
    let mut p = g * Fr::rand(rng);
    let points: Vec<G1Projective> = (0..n)
        .map(|_| {
            p += steps[rng.gen_range(0..steps.len())];
            p
        })
        .collect();
    G1Projective::normalize_batch(&points)
}

/// `n` random scalars.
pub fn random_scalars(n: usize, rng: &mut StdRng) -> Vec<Fr> {
    (0..n).map(|_| Fr::rand(rng)).collect()
}

/// Random inputs of size `n` from `seed`.
pub fn random_case(n: usize, seed: u64) -> Case {
    let mut rng = StdRng::seed_from_u64(seed);
    let bases = random_bases(n, &mut rng);
    let scalars = random_scalars(n, &mut rng);
    Case::new(format!("random n = {n} (seed {seed})"), bases, scalars)
}

/// The adversarial inputs, then random ones up to `max` points (seeded by `seed`):
/// n = 0 and 1, zero and r - 1 scalars, P beside -P, the point at infinity, all
/// scalars equal, one base repeated, odd sizes.
pub fn cases(seed: u64, max: usize) -> Vec<Case> {
    let mut rng = StdRng::seed_from_u64(seed);
    let minus_one = -Fr::one();
    let mut out = vec![Case::new("n = 0", Vec::new(), Vec::new())];
    let b = random_bases(1, &mut rng);
    out.push(Case::new("n = 1", b.clone(), random_scalars(1, &mut rng)));
    out.push(Case::new("n = 1, scalar 0", b.clone(), vec![Fr::zero()]));
    out.push(Case::new("n = 1, scalar r - 1", b, vec![minus_one]));
    out.push(Case::new(
        "n = 1, the point at infinity",
        vec![G1Affine::zero()],
        random_scalars(1, &mut rng),
    ));
    let n = 67;
    let bases = random_bases(n, &mut rng);
    out.push(Case::new(
        "all scalars 0",
        bases.clone(),
        vec![Fr::zero(); n],
    ));
    out.push(Case::new(
        "all scalars r - 1",
        bases.clone(),
        vec![minus_one; n],
    ));
    let s = Fr::rand(&mut rng);
    out.push(Case::new("all scalars equal", bases.clone(), vec![s; n]));
    // P and -P with the same scalar cancel; with other scalars they do not.
    let half: Vec<G1Affine> = random_bases(33, &mut rng);
    let mut pm = half.clone();
    pm.extend(half.iter().map(|p| -*p));
    let mut same = random_scalars(33, &mut rng);
    same.extend_from_within(..);
    out.push(Case::new("P and -P, equal scalars", pm.clone(), same));
    out.push(Case::new(
        "P and -P, random scalars",
        pm,
        random_scalars(66, &mut rng),
    ));
    // Infinity among ordinary points, zero scalars among random ones.
    let mut mixed = random_bases(255, &mut rng);
    let mut ms = random_scalars(255, &mut rng);
    for i in (0..255).step_by(7) {
        mixed[i] = G1Affine::zero();
    }
    for i in (3..255).step_by(11) {
        ms[i] = Fr::zero();
    }
    for i in (5..255).step_by(13) {
        ms[i] = minus_one;
    }
    out.push(Case::new(
        "n = 255: infinity, 0 and r - 1 scattered",
        mixed,
        ms,
    ));
    let p = random_bases(1, &mut rng)[0];
    out.push(Case::new(
        "one base repeated, n = 129",
        vec![p; 129],
        random_scalars(129, &mut rng),
    ));
    let mut n = 3;
    while n <= max {
        out.push(random_case(n, seed.wrapping_add(n as u64)));
        n = n * 4 + 1;
    }
    if max >= 1 {
        out.push(random_case(max, seed.wrapping_add(1)));
    }
    out
}

/// arkworks' MSM of `c` (the reference).
pub fn arkworks(c: &Case) -> G1Projective {
    G1Projective::msm(&c.bases, &c.scalars).unwrap_or_default()
}

/// What a check found: one line per mismatch or error (empty: every result equals
/// arkworks'), and one line per case that passed (with its size).
#[derive(Default, Debug)]
pub struct Outcome {
    /// Mismatches and errors, each naming its case (and so its seed).
    pub failures: Vec<String>,
    /// The cases that matched.
    pub passed: Vec<String>,
}

impl Outcome {
    fn check(&mut self, what: &str, got: wgpu_msm::Result<G1Projective>, want: G1Projective) {
        match got {
            Ok(g) if g == want => self.passed.push(what.to_string()),
            Ok(g) => self.failures.push(format!(
                "{what}: GPU {} != arkworks {}",
                g.into_affine(),
                want.into_affine()
            )),
            Err(e) => self.failures.push(format!("{what}: error {e}")),
        }
    }
}

/// Runs every case through [`Device::msm_async`] on `dev` and compares with arkworks.
pub async fn check_host_msms(dev: &Device, cases: &[Case]) -> Outcome {
    let mut out = Outcome::default();
    let cfg = MsmConfig::default();
    for c in cases {
        let got = dev.msm_async(&c.bases, &c.scalars, &cfg).await;
        out.check(&format!("msm_async, {}", c.name), got, arkworks(c));
    }
    out
}

/// Resident bases ([`Device::upload_bases_async`] + [`Device::msm_with_async`]) and a
/// batch over them ([`Device::msm_batch_async`], sets of different lengths, one
/// empty), from `seed`, with `n` bases.
pub async fn check_resident_and_batch(dev: &Device, n: usize, seed: u64) -> Outcome {
    let mut out = Outcome::default();
    let cfg = MsmConfig::default();
    let mut rng = StdRng::seed_from_u64(seed);
    let bases = random_bases(n, &mut rng);
    let srs = match dev.upload_bases_async(&bases).await {
        Ok(s) => s,
        Err(e) => {
            out.failures
                .push(format!("upload_bases_async, n = {n} (seed {seed}): {e}"));
            return out;
        }
    };
    let lens = [n, n / 2 + 1, 0, 1, n.saturating_sub(3)];
    let sets: Vec<Vec<Fr>> = lens
        .iter()
        .map(|&k| random_scalars(k.min(n), &mut rng))
        .collect();
    let want: Vec<G1Projective> = sets
        .iter()
        .map(|s| G1Projective::msm(&bases[..s.len()], s).unwrap_or_default())
        .collect();
    let got = dev.msm_with_async(&srs, &sets[0], &cfg).await;
    out.check(
        &format!("msm_with_async, n = {n} (seed {seed})"),
        got,
        want[0],
    );
    let refs: Vec<&[Fr]> = sets.iter().map(Vec::as_slice).collect();
    match dev.msm_batch_async(&srs, &refs, &cfg).await {
        Ok(rs) if rs.len() == want.len() => {
            for (k, (g, w)) in rs.into_iter().zip(&want).enumerate() {
                out.check(
                    &format!(
                        "msm_batch_async set {k} of {} scalars (seed {seed})",
                        refs[k].len()
                    ),
                    Ok(g),
                    *w,
                );
            }
        }
        Ok(rs) => out.failures.push(format!(
            "msm_batch_async: {} results for {}",
            rs.len(),
            want.len()
        )),
        Err(e) => out
            .failures
            .push(format!("msm_batch_async (seed {seed}): {e}")),
    }
    // A scalar set longer than the bases is an error, not a result.
    let long = random_scalars(n + 1, &mut rng);
    match dev.msm_with_async(&srs, &long, &cfg).await {
        Err(wgpu_msm::Error::LengthMismatch { .. }) => out
            .passed
            .push("msm_with_async, too many scalars: Err".into()),
        other => out.failures.push(format!(
            "msm_with_async with {} scalars over {n} bases gave {other:?}, not LengthMismatch",
            n + 1
        )),
    }
    out
}

/// The whole program: the first device of [`Device::all_async`], every case of
/// [`cases`] up to `max` points, resident and batch calls, and a malformed input (more
/// scalars than bases) that must be an error.
///
/// # Errors
/// When no device opens.
pub async fn run(seed: u64, max: usize) -> wgpu_msm::Result<Outcome> {
    let devices = Device::all_async().await?;
    let dev = &devices[0];
    let mut out = check_host_msms(dev, &cases(seed, max)).await;
    let more = check_resident_and_batch(dev, max.clamp(1, 1000), seed ^ 0x5eed).await;
    out.failures.extend(more.failures);
    out.passed.extend(more.passed);
    let mut rng = StdRng::seed_from_u64(seed);
    let bases = random_bases(4, &mut rng);
    let scalars = random_scalars(5, &mut rng);
    match dev.msm_async(&bases, &scalars, &MsmConfig::default()).await {
        Err(wgpu_msm::Error::LengthMismatch { .. }) => {
            out.passed.push("msm_async, 4 bases, 5 scalars: Err".into())
        }
        other => out.failures.push(format!(
            "msm_async with 4 bases and 5 scalars gave {other:?}, not LengthMismatch"
        )),
    }
    // A base off the curve (a valid point with y changed): an error naming its index.
    let mut bad = random_bases(9, &mut rng);
    let p = bad[6];
    let (x, y) = p.xy().unwrap_or_default();
    bad[6] = G1Affine::new_unchecked(x, y + ark_bn254::Fq::one());
    let scalars = random_scalars(9, &mut rng);
    match dev.msm_async(&bad, &scalars, &MsmConfig::default()).await {
        Err(wgpu_msm::Error::PointNotOnCurve { index: 6 }) => out
            .passed
            .push("msm_async, base 6 off the curve: Err(PointNotOnCurve 6)".into()),
        other => out.failures.push(format!(
            "msm_async with base 6 off the curve gave {other:?}, not PointNotOnCurve {{ index: 6 }}"
        )),
    }
    Ok(out)
}
