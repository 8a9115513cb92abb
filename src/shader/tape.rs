//! The point formulas as programs for the register machine of `shaders/curve_tape.wgsl`.
//!
//! llvmpipe through GL and SwiftShader inline every function call, and their compile
//! time grows faster than the inlined code: G2's MSM kernels, whose point additions
//! inline ten to twenty-five Fq2 multiplications each, do not build in bounded time and
//! memory there (docs/drivers.md). The machine runs a
//! formula as a loop over its steps with one multiplication in the body, so each point
//! operation costs one multiply site of code (`Unroll::Rolled` builds of G2 use it). The programs are
//! the XYZZ formulas of `curve_formulas.wgsl` (hyperelliptic.org EFD, `add-2008-s` and
//! `dbl-2008-s-1` for a = 0, `madd-2008-s` for the mixed addition of an affine q, which
//! takes 10 multiplications where the addition takes 14) with named registers; [`wgsl`]
//! numbers the registers and writes the program as WGSL constants. Fused programs
//! ([`fuse`]) write each formula's Y3 = R (Q - X3) - Y1 PPP as one step whose two
//! products share one Montgomery reduction (`fq_mul_sub`); the shader builder asks for
//! them where that pays (`shader::source_for_device`). On a GPU the registers live in
//! thread-local memory and the steps are bound by the bytes they move, so the programs'
//! names share registers ([`ALIASES`]): the temporaries reuse dead ones and each result
//! lands on its operand, so that a run's sum stays in the registers between additions.

/// A field operation of the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// `dst = a * b` (Montgomery).
    Mul = 0,
    /// `dst = a + b`.
    Add = 1,
    /// `dst = a - b`.
    Sub = 2,
    /// `dst = a * b - c * d`, both products under one Montgomery reduction where the
    /// field has it (`fq_mul_sub`): only in fused programs ([`fuse`]).
    MulSub = 3,
}

use Op::{Add, Mul, MulSub, Sub};

/// One step: `(dst, op, a, b)` on named registers.
pub(crate) type Step = (&'static str, Op, &'static str, &'static str);

/// A step as encoded: `(dst, op, a, b, c, d)`, with `c` and `d` read by [`Op::MulSub`]
/// only (empty otherwise).
type Encoded = (
    &'static str,
    Op,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// The registers with a fixed role, first in the numbering: the operands p and q, the
/// values the shader tests between segments (`h`, `r`) and the result.
const FIXED: [&str; 14] = [
    "x", "y", "zz", "zzz", "qx", "qy", "qzz", "qzzz", "h", "r", "x3", "y3", "zz3", "zzz3",
];

/// p + q, first part: H = U2 - U1 and R = S2 - S1, zero when p == q (both) or p == -q
/// (H only); the shader tests them before the second part.
pub(crate) const ADD_A: &[Step] = &[
    ("u1", Mul, "x", "qzz"),
    ("s1", Mul, "y", "qzzz"),
    ("u2", Mul, "qx", "zz"),
    ("s2", Mul, "qy", "zzz"),
    ("h", Sub, "u2", "u1"),
    ("r", Sub, "s2", "s1"),
];

/// p + q, second part (H != 0).
pub(crate) const ADD_B: &[Step] = &[
    ("pp", Mul, "h", "h"),
    ("ppp", Mul, "h", "pp"),
    ("q", Mul, "u1", "pp"),
    ("t", Mul, "r", "r"),
    ("t", Sub, "t", "ppp"),
    ("q2", Add, "q", "q"),
    ("x3", Sub, "t", "q2"),
    ("t", Sub, "q", "x3"),
    ("t", Mul, "r", "t"),
    ("u", Mul, "s1", "ppp"),
    ("y3", Sub, "t", "u"),
    ("zz3", Mul, "zz", "qzz"),
    ("zz3", Mul, "zz3", "pp"),
    ("zzz3", Mul, "zzz", "qzzz"),
    ("zzz3", Mul, "zzz3", "ppp"),
];

/// p + q for affine q (its ZZ and ZZZ one, unread), first part: H = U2 - X1 and
/// R = S2 - Y1, tested as [`ADD_A`]'s.
pub(crate) const MADD_A: &[Step] = &[
    ("u2", Mul, "qx", "zz"),
    ("s2", Mul, "qy", "zzz"),
    ("h", Sub, "u2", "x"),
    ("r", Sub, "s2", "y"),
];

/// p + q for affine q, second part (H != 0).
pub(crate) const MADD_B: &[Step] = &[
    ("pp", Mul, "h", "h"),
    ("ppp", Mul, "h", "pp"),
    ("q", Mul, "x", "pp"),
    ("t", Mul, "r", "r"),
    ("t", Sub, "t", "ppp"),
    ("q2", Add, "q", "q"),
    ("x3", Sub, "t", "q2"),
    ("t", Sub, "q", "x3"),
    ("t", Mul, "r", "t"),
    ("u", Mul, "y", "ppp"),
    ("y3", Sub, "t", "u"),
    ("zz3", Mul, "zz", "pp"),
    ("zzz3", Mul, "zzz", "ppp"),
];

/// 2p.
pub(crate) const DBL: &[Step] = &[
    ("u", Add, "y", "y"),
    ("v", Mul, "u", "u"),
    ("w", Mul, "u", "v"),
    ("s", Mul, "x", "v"),
    ("t", Mul, "x", "x"),
    ("m", Add, "t", "t"),
    ("m", Add, "m", "t"),
    ("t", Mul, "m", "m"),
    ("q2", Add, "s", "s"),
    ("x3", Sub, "t", "q2"),
    ("t", Sub, "s", "x3"),
    ("t", Mul, "m", "t"),
    ("u", Mul, "w", "y"),
    ("y3", Sub, "t", "u"),
    ("zz3", Mul, "v", "zz"),
    ("zzz3", Mul, "w", "zzz"),
];

/// The segments in program order, with the WGSL name of each one's start (each first
/// part followed by its second: curve_tape.wgsl runs the segment after it).
const SEGMENTS: [(&str, &[Step]); 5] = [
    ("ADD_A", ADD_A),
    ("ADD_B", ADD_B),
    ("MADD_A", MADD_A),
    ("MADD_B", MADD_B),
    ("DBL", DBL),
];

/// Names that share another's register: each value is written after the last read, in
/// every program, of the register it takes, so that a program touches fewer registers
/// (the machine's steps are bound by the bytes they move through thread-local memory).
/// U2 and S2 become H and R in place and PPP takes H; Q2 takes U. Every result lands on
/// its operand (X3 on X, ...): no program reads an operand after it writes that
/// coordinate, and a sum that stays in the machine (`run_sum_madd`) needs no copy.
const ALIASES: [(&str, &str); 8] = [
    ("u2", "h"),
    ("s2", "r"),
    ("ppp", "h"),
    ("q2", "u"),
    ("x3", "x"),
    ("y3", "y"),
    ("zz3", "zz"),
    ("zzz3", "zzz"),
];

/// The register that `name` is held in.
fn resolve(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(name, |(_, r)| r)
}

/// Register names in numbering order: [`FIXED`], then every other register as it first
/// appears in the program ([`ALIASES`] resolved).
pub(crate) fn registers() -> Vec<&'static str> {
    let steps = SEGMENTS.iter().flat_map(|(_, steps)| steps.iter());
    let names = FIXED
        .into_iter()
        .chain(steps.flat_map(|&(d, _, a, b)| [a, b, d]));
    let mut regs: Vec<&str> = Vec::new();
    for name in names.map(resolve) {
        if !regs.contains(&name) {
            regs.push(name);
        }
    }
    regs
}

/// Register `name`'s number.
fn index(regs: &[&str], name: &str) -> u32 {
    let name = resolve(name);
    regs.iter()
        .position(|r| *r == name)
        .expect("a register of the program") as u32
}

/// `steps` as encoded steps, each `x = a * b; y = c * d; z = x - y` whose temporaries
/// x and y no later step of the segment reads (and whose second product does not read
/// x) written as one `z = a * b - c * d` step ([`Op::MulSub`]): Y3 of every formula, one
/// Montgomery reduction fewer a point operation.
fn fuse(steps: &[Step]) -> Vec<Encoded> {
    let mut out = Vec::with_capacity(steps.len());
    let mut i = 0;
    while i < steps.len() {
        if i + 2 < steps.len() {
            let (x, o1, a, b) = steps[i];
            let (y, o2, c, d) = steps[i + 1];
            let (z, o3, s, t) = steps[i + 2];
            // A temporary the fused step does not write: its register ([`ALIASES`]) is
            // neither one the shader reads nor one a later step of the segment reads.
            let unread = |r: &str| {
                let r = resolve(r);
                FIXED.iter().all(|&f| resolve(f) != r)
                    && steps[i + 3..]
                        .iter()
                        .all(|&(_, _, p, q)| resolve(p) != r && resolve(q) != r)
            };
            if (o1, o2, o3) == (Mul, Mul, Sub)
                && (s, t) == (x, y)
                && x != y
                && c != x
                && d != x
                && unread(x)
                && unread(y)
            {
                out.push((z, MulSub, a, b, c, d));
                i += 3;
                continue;
            }
        }
        let (d, op, a, b) = steps[i];
        out.push((d, op, a, b, "", ""));
        i += 1;
    }
    out
}

/// The segments as encoded steps, in program order, fused ([`fuse`]) where `fused`.
fn segments_fused(fused: bool) -> Vec<(&'static str, Vec<Encoded>)> {
    let plain = |steps: &[Step]| {
        steps
            .iter()
            .map(|&(d, op, a, b)| (d, op, a, b, "", ""))
            .collect()
    };
    SEGMENTS
        .iter()
        .map(|&(name, steps)| (name, if fused { fuse(steps) } else { plain(steps) }))
        .collect()
}

/// The encoded program: `op | dst << 2 | a << 8 | b << 14 | c << 20 | d << 26` per
/// step (c and d zero but for [`Op::MulSub`]).
pub(crate) fn encoded(fused: bool) -> Vec<u32> {
    let regs = registers();
    assert!(regs.len() <= 64, "register numbers are six bits");
    let reg = |n: &str| if n.is_empty() { 0 } else { index(&regs, n) };
    segments_fused(fused)
        .iter()
        .flat_map(|(_, steps)| steps.iter())
        .map(|&(d, op, a, b, c, e)| {
            op as u32 | reg(d) << 2 | reg(a) << 8 | reg(b) << 14 | reg(c) << 20 | reg(e) << 26
        })
        .collect()
}

/// The WGSL constants curve_tape.wgsl reads: `TAPE_REGS`, `R_*` for the fixed
/// registers, `TAPE_ADD_A` / `TAPE_ADD_B` / `TAPE_MADD_A` / `TAPE_MADD_B` / `TAPE_DBL` /
/// `TAPE_END` (segment starts and the program's end) and the program `TAPE`, with
/// fused steps ([`fuse`]) where `fused`.
pub(crate) fn wgsl(fused: bool) -> String {
    let regs = registers();
    let mut out = format!(
        "// The point formulas' program (src/shader/tape.rs).\nconst TAPE_REGS: u32 = {}u;\n",
        regs.len()
    );
    for name in FIXED {
        out += &format!(
            "const R_{}: u32 = {}u;\n",
            name.to_uppercase(),
            index(&regs, name)
        );
    }
    let mut start = 0;
    for (name, steps) in segments_fused(fused) {
        out += &format!("const TAPE_{name}: u32 = {start}u;\n");
        start += steps.len();
    }
    out += &format!("const TAPE_END: u32 = {start}u;\n");
    let words: Vec<String> = encoded(fused).iter().map(|w| format!("{w}u")).collect();
    out += &format!("const TAPE = array<u32, {start}>({});\n", words.join(", "));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::{Fq, G1Affine, G1Projective};
    use ark_ec::{AffineRepr, CurveGroup};
    use ark_ff::{Field, UniformRand};
    use ark_std::rand::{rngs::StdRng, SeedableRng};
    use std::collections::HashMap;

    /// Runs `steps` on the registers, decoding each step as the shader does.
    fn run(regs: &mut [Fq], steps: &[u32]) {
        for &s in steps {
            let [_, a, b, c, d] = fields(s).map(|r| regs[r]);
            regs[fields(s)[0]] = match s & 3 {
                0 => a * b,
                1 => a + b,
                2 => a - b,
                _ => a * b - c * d,
            };
        }
    }

    /// A step's registers as the shader decodes them: dst, a, b, c, d.
    fn fields(s: u32) -> [usize; 5] {
        [2, 8, 14, 20, 26].map(|shift| (s >> shift & 63) as usize)
    }

    /// The XYZZ form of affine a with ZZ = z^2, ZZZ = z^3.
    fn xyzz(a: G1Affine, z: Fq) -> [Fq; 4] {
        let (zz, zzz) = (z.square(), z.square() * z);
        [a.x * zz, a.y * zzz, zz, zzz]
    }

    /// The affine point of registers x3..zzz3.
    fn result(regs: &[Fq], names: &[&str]) -> G1Affine {
        let at = |n| regs[index(names, n) as usize];
        let (zz, zzz) = (at("zz3"), at("zzz3"));
        G1Affine::new(at("x3") / zz, at("y3") / zzz)
    }

    /// Each segment's steps in the encoded program, by segment name.
    fn segments(fused: bool) -> HashMap<&'static str, std::ops::Range<usize>> {
        let mut start = 0;
        segments_fused(fused)
            .into_iter()
            .map(|(name, steps)| {
                start += steps.len();
                (name, start - steps.len()..start)
            })
            .collect()
    }

    /// The addition's first and second parts (`first`, `second`) against arkworks, with
    /// q in XYZZ form of a random z, or affine (z = 1) where `affine`: p + q, then p == q
    /// (H and R vanish, the doubling runs on p's registers) and p == -q (H alone).
    fn check_addition(first: &str, second: &str, affine: bool, fused: bool) {
        let names = registers();
        let code = encoded(fused);
        let seg = segments(fused);
        let mut rng = StdRng::seed_from_u64(27);
        for _ in 0..20 {
            let p = (G1Projective::rand(&mut rng)).into_affine();
            let q = (G1Projective::rand(&mut rng)).into_affine();
            let mut regs = vec![Fq::from(0u64); names.len()];
            let zp = Fq::rand(&mut rng);
            let zq = if affine { Fq::ONE } else { Fq::rand(&mut rng) };
            regs[..4].copy_from_slice(&xyzz(p, zp));
            regs[4..8].copy_from_slice(&xyzz(q, zq));
            let saved = regs.clone();
            run(&mut regs, &code[seg[first].clone()]);
            run(&mut regs, &code[seg[second].clone()]);
            assert_eq!(
                result(&regs, &names),
                (p + q).into_affine(),
                "{first}: p + q"
            );
            let mut regs = saved.clone();
            regs[4..8].copy_from_slice(&xyzz(p, zq));
            run(&mut regs, &code[seg[first].clone()]);
            let zero = Fq::from(0u64);
            assert_eq!(
                (
                    regs[index(&names, "h") as usize],
                    regs[index(&names, "r") as usize]
                ),
                (zero, zero)
            );
            run(&mut regs, &code[seg["DBL"].clone()]);
            assert_eq!(result(&regs, &names), (p + p).into_affine(), "{first}: 2p");
            let mut regs = saved;
            regs[4..8].copy_from_slice(&xyzz(-p, zq));
            run(&mut regs, &code[seg[first].clone()]);
            assert_eq!(regs[index(&names, "h") as usize], zero);
            assert_ne!(regs[index(&names, "r") as usize], zero);
            assert!(!p.is_zero());
        }
    }

    #[test]
    fn programs_add_and_double_as_arkworks() {
        for fused in [false, true] {
            check_addition("ADD_A", "ADD_B", false, fused);
        }
    }

    #[test]
    fn mixed_program_adds_affine_points_as_arkworks() {
        for fused in [false, true] {
            check_addition("MADD_A", "MADD_B", true, fused);
        }
        let muls = |s: &[Step]| s.iter().filter(|st| st.1 == Mul).count();
        assert_eq!(muls(MADD_A) + muls(MADD_B), 10);
        assert_eq!(muls(ADD_A) + muls(ADD_B), 14);
    }

    #[test]
    fn constants_name_every_segment() {
        let w = wgsl(true);
        for name in [
            "TAPE_ADD_A",
            "TAPE_ADD_B",
            "TAPE_MADD_A",
            "TAPE_MADD_B",
            "TAPE_DBL",
            "TAPE_END",
            "R_H",
            "R_ZZZ3",
            "TAPE_REGS",
        ] {
            assert!(w.contains(&format!("const {name}")), "{name} missing");
        }
        let steps: usize = SEGMENTS.iter().map(|(_, s)| s.len()).sum();
        assert_eq!(encoded(false).len(), steps);
    }

    #[test]
    fn fusing_writes_each_y3_as_one_step() {
        // Y3 = R (Q - X3) - Y1 PPP and its like: one fused step in each of the three
        // formulas' second parts, two steps fewer each.
        for (name, steps) in SEGMENTS {
            let f = fuse(steps);
            let fused = f.iter().filter(|s| s.1 == MulSub).count();
            let want = usize::from(matches!(name, "ADD_B" | "MADD_B" | "DBL"));
            assert_eq!(fused, want, "{name}");
            assert_eq!(f.len(), steps.len() - 2 * want, "{name}");
            assert!(f.iter().any(|s| s.0 == "y3") || want == 0, "{name}");
        }
        let plain = segments_fused(false);
        assert!(plain.iter().all(|(_, s)| s.iter().all(|st| st.1 != MulSub)));
    }

    #[test]
    fn results_land_on_p_and_the_mixed_addition_touches_twelve_registers() {
        // `run_sum_madd` (curve_tape.wgsl) keeps a run's sum in p's registers: every
        // program's result must land there.
        let regs = registers();
        for (result, operand) in [("x3", "x"), ("y3", "y"), ("zz3", "zz"), ("zzz3", "zzz")] {
            assert_eq!(index(&regs, result), index(&regs, operand), "{result}");
        }
        let seg = segments(true);
        let code = encoded(true);
        let mut touched = std::collections::BTreeSet::<usize>::new();
        for &s in &code[seg["MADD_A"].start..seg["MADD_B"].end] {
            let read = if s & 3 == MulSub as u32 { 5 } else { 3 };
            touched.extend(&fields(s)[..read]);
        }
        // x, y, zz, zzz, qx, qy, h, r and four temporaries (pp, q, t, u).
        assert_eq!(touched.len(), 12, "{touched:?}");
        assert_eq!(regs.len(), 20);
    }

    #[test]
    fn no_program_writes_the_q_registers() {
        // `run_sum_madd` (curve_tape.wgsl) reads a back from them after a run.
        for fused in [false, true] {
            for (name, steps) in segments_fused(fused) {
                for step in steps {
                    assert!(!["qx", "qy", "qzz", "qzzz"].contains(&step.0), "{name}");
                }
            }
        }
    }
}
