//! The Portable32 path's small-limb Fq multiply, generated for
//! [`SMALL_LIMBS`] limbs of [`SMALL_BITS`] bits (`shaders/field_limbs.wgsl` has the rest
//! of that field).
//!
//! A limb product has 2 x [`SMALL_BITS`] bits, so a column sums every product a
//! Montgomery multiplication adds to it in a u32 (params.rs asserts the bound: two
//! products per round over [`SMALL_LIMBS`] rounds, plus one carry) and each product is
//! one 32-bit multiply-add. R = 2^256 as arkworks: `ROUNDS` rounds reduce
//! [`SMALL_BITS`] bits each and a last one `LAST` bits, then the columns shift right by
//! `LAST` bits.

use super::params::{SMALL_BITS, SMALL_LIMBS};
use super::unroll::Unroll;
use std::fmt::Write;

/// Full Montgomery rounds (the last, partial one comes after them).
const ROUNDS: u32 = SMALL_LIMBS - 1;
/// Bits the last round reduces.
const LAST: u32 = 256 % SMALL_BITS;
/// Rounds per loop iteration in `Unroll::Compact` builds: fewer loop iterations and
/// column moves than one round per iteration, far less code than no loop.
const COMPACT_ROUNDS: u32 = 3;
const MASK: u32 = (1 << SMALL_BITS) - 1;

/// `fq_mul` and `fq_sqr` for the small-limb Fq, the multiply's rounds a loop of
/// `COMPACT_ROUNDS` rounds per iteration in `Unroll::Compact` builds and one in
/// `Unroll::Rolled` builds (the least code).
pub(crate) fn mul_and_sqr(mode: Unroll) -> String {
    let k = match mode {
        Unroll::Full => ROUNDS,
        Unroll::Compact => COMPACT_ROUNDS,
        Unroll::Rolled => 1,
    };
    mul(k)
        + "/// a^2 in Montgomery form.\nfn fq_sqr(a: Fq) -> Fq {\n    return fq_mul(a, a);\n}\n"
        + "/// a * b - c * d mod p.\nfn fq_mul_sub(a: Fq, b: Fq, c: Fq, d: Fq) -> Fq {\n    \
           return fq_sub(fq_mul(a, b), fq_mul(c, d));\n}\n"
}

/// One full round at column offset `o`: adds `a[j] * x[o]` and `m * p[j]` to columns
/// `o + j`, where m clears the low `SMALL_BITS` bits of column `o`, whose high bits then
/// carry into column `o + 1`.
fn round(s: &mut String, o: u32, x: &str, pad: &str) {
    let (n, b) = (SMALL_LIMBS, SMALL_BITS);
    let _ = writeln!(s, "{pad}{{");
    let _ = writeln!(s, "{pad}    let bi = {x}[{o}];");
    for j in 0..n {
        let _ = writeln!(s, "{pad}    t[{}] += a[{j}] * bi;", o + j);
    }
    let _ = writeln!(s, "{pad}    let m = (t[{o}] * FQ_INV) & 0x{MASK:x}u;");
    for j in 0..n {
        let _ = writeln!(s, "{pad}    t[{}] += m * FQ_PS[{j}];", o + j);
    }
    let _ = writeln!(s, "{pad}    t[{}] += t[{o}] >> {b}u;\n{pad}}}", o + 1);
}

/// The last round at column offset `o`: `a * x[o]` added, a `LAST`-bit reduction, then
/// the columns `o..o + n` normalised and shifted right by `LAST` bits into the result.
fn last_round(s: &mut String, o: u32, x: &str) {
    let (n, b) = (SMALL_LIMBS, SMALL_BITS);
    let _ = writeln!(s, "    let bl = {x}[{o}];");
    for j in 0..n {
        let _ = writeln!(s, "    t[{}] += a[{j}] * bl;", o + j);
    }
    let _ = writeln!(
        s,
        "    let m = (t[{o}] * FQ_INV) & 0x{:x}u;",
        (1u32 << LAST) - 1
    );
    for j in 0..n {
        let _ = writeln!(s, "    t[{}] += m * FQ_PS[{j}];", o + j);
    }
    let _ = writeln!(s, "    var nl: array<u32, {}>;\n    var c = 0u;", n + 1);
    for j in 0..n {
        let _ = writeln!(
            s,
            "    {{\n        let v = t[{}] + c;\n        nl[{j}] = v & 0x{MASK:x}u;\n        c = v >> {b}u;\n    }}",
            o + j
        );
    }
    let _ = writeln!(s, "    nl[{n}] = c;\n    var r: Fq;");
    for j in 0..n {
        let _ = writeln!(
            s,
            "    r[{j}] = (nl[{j}] >> {LAST}u) | ((nl[{}] << {}u) & 0x{MASK:x}u);",
            j + 1,
            b - LAST
        );
    }
    s.push_str("    return r;\n}\n");
}

/// `fq_mul`, operand scanning with the reduction interleaved, `k` rounds per loop
/// iteration (`k >= ROUNDS`: no loop). In the loop, round `r` of an iteration works at
/// column offset `r` and the iteration ends by moving the columns and b's limbs down
/// `k` places, so no array is indexed by a loop variable.
fn mul(k: u32) -> String {
    let n = SMALL_LIMBS;
    let (iters, rem) = if k >= ROUNDS {
        (0, ROUNDS)
    } else {
        (ROUNDS / k, ROUNDS % k)
    };
    let tl = n + (k - 1).max(rem);
    let mut s = format!(
        "/// Montgomery product a * b / 2^256 mod p (< 2p for inputs < 2p).\n\
         fn fq_mul(a: Fq, b: Fq) -> Fq {{\n    var t: array<u32, {tl}>;\n    var bs = b;\n"
    );
    if iters > 0 {
        let _ = writeln!(s, "    for (var i = 0u; i < {iters}u; i++) {{");
        for o in 0..k {
            round(&mut s, o, "bs", "        ");
        }
        for j in 0..tl {
            let v = if j + k < tl {
                format!("t[{}]", j + k)
            } else {
                "0u".into()
            };
            let _ = writeln!(s, "        t[{j}] = {v};");
        }
        for j in 0..n - k {
            let _ = writeln!(s, "        bs[{j}] = bs[{}];", j + k);
        }
        s.push_str("    }\n");
    }
    for o in 0..rem {
        round(&mut s, o, "bs", "    ");
    }
    last_round(&mut s, rem, "bs");
    s
}
