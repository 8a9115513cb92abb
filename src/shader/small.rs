//! The Portable32 path's small-limb Fq multiply, generated for
//! [`SMALL_LIMBS`] limbs of [`SMALL_BITS`] bits (`shaders/field_limbs.wgsl` has the rest
//! of that field).
//!
//! A limb product has 2 x [`SMALL_BITS`] bits, so a column sums every product a
//! Montgomery multiplication adds to it in a u32 (params.rs asserts the bound: three
//! products per round, as `fq_mul_sub` adds two, over [`SMALL_LIMBS`] rounds, plus one
//! carry) and each product is one 32-bit multiply-add. R = 2^256 as arkworks: `ROUNDS` rounds reduce
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
/// column moves than one round per iteration, far less code than no loop. Two: the
/// MSM's kernels pay for code size more than for the loop (docs/portable32-log.md).
const COMPACT_ROUNDS: u32 = 2;
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
    let sqr = match mode {
        Unroll::Rolled => {
            "/// a^2 in Montgomery form.\nfn fq_sqr(a: Fq) -> Fq {\n    return fq_mul(a, a);\n}\n"
                .into()
        }
        Unroll::Full | Unroll::Compact => sqr(),
    };
    mul(k, MUL) + &sqr + &mul(k, MUL_SUB)
}

/// `fq_sqr`, written out: the product's columns first (each cross product a[i] a[j],
/// i < j, once, the columns doubled, then the squares: 210 limb products instead of
/// 400), then the rounds of the reduction alone. A column holds at most what the
/// multiply's does (the product's share of a column is the same value).
fn sqr() -> String {
    let n = SMALL_LIMBS;
    let mut s = format!(
        "/// a^2 in Montgomery form (< 2p for a < 2p), the product's symmetric half once.\n\
         fn fq_sqr(a: Fq) -> Fq {{\n    var t: array<u32, {}>;\n",
        2 * n
    );
    for i in 0..n {
        for j in i + 1..n {
            let _ = writeln!(s, "    t[{}] += a[{i}] * a[{j}];", i + j);
        }
    }
    for c in 1..2 * n - 2 {
        let _ = writeln!(s, "    t[{c}] <<= 1u;");
    }
    for i in 0..n {
        let _ = writeln!(s, "    t[{}] += a[{i}] * a[{i}];", 2 * i);
    }
    for o in 0..ROUNDS {
        round(&mut s, o, &[], "    ");
    }
    last_round(&mut s, ROUNDS, &[]);
    s.push_str("    return r;\n}\n");
    s
}

/// The shape of a generated multiply: its signature, what it computes first, the
/// products each round adds (the limbs of one operand times one limb of the other,
/// which the rounds walk) and what it returns.
struct Shape {
    doc: &'static str,
    signature: &'static str,
    prologue: &'static str,
    /// (operand, walked operand) of each product.
    products: &'static [(&'static str, &'static str)],
    ret: &'static str,
}

/// `fq_mul`: a * b / 2^256 mod p, < 2p for inputs < 2p.
const MUL: Shape = Shape {
    doc: "/// Montgomery product a * b / 2^256 mod p (< 2p for inputs < 2p).",
    signature: "fn fq_mul(a: Fq, b: Fq) -> Fq",
    prologue: "",
    products: &[("a", "b")],
    ret: "r",
};

/// `fq_mul_sub`: a * b - c * d as a * b + (2p - c) * d with one reduction: three
/// products a round still fit a column (params.rs), and the sum, below 8p^2, reduces
/// below 8p^2 / 2^256 + p < 4p, which one conditional subtraction of 2p brings below 2p.
const MUL_SUB: Shape = Shape {
    doc: "/// a * b - c * d mod p (< 2p for inputs < 2p), with one Montgomery reduction.",
    signature: "fn fq_mul_sub(a: Fq, b: Fq, c: Fq, d: Fq) -> Fq",
    prologue: "    let e = fq_neg(c);\n",
    products: &[("a", "b"), ("e", "d")],
    ret: "fq_minus_if_ge(r, FQ_2PS)",
};

/// Adds the products of column offset `o` to columns `o + j`: `x[j] * y[o]` for each
/// (x, y) of `products` (y's limbs in `ys`, the walked copy).
fn add_products(s: &mut String, o: u32, products: &[(&str, &str)], pad: &str) {
    for (x, y) in products {
        let _ = writeln!(s, "{pad}    let {y}i = {y}s[{o}];");
        for j in 0..SMALL_LIMBS {
            let _ = writeln!(s, "{pad}    t[{}] += {x}[{j}] * {y}i;", o + j);
        }
    }
}

/// One full round at column offset `o`: adds the products, then `m * p[j]` to columns
/// `o + j`, where m clears the low `SMALL_BITS` bits of column `o`, whose high bits then
/// carry into column `o + 1`.
fn round(s: &mut String, o: u32, products: &[(&str, &str)], pad: &str) {
    let (n, b) = (SMALL_LIMBS, SMALL_BITS);
    let _ = writeln!(s, "{pad}{{");
    add_products(s, o, products, pad);
    let _ = writeln!(s, "{pad}    let m = (t[{o}] * FQ_INV) & 0x{MASK:x}u;");
    for j in 0..n {
        let _ = writeln!(s, "{pad}    t[{}] += m * FQ_PS[{j}];", o + j);
    }
    let _ = writeln!(s, "{pad}    t[{}] += t[{o}] >> {b}u;\n{pad}}}", o + 1);
}

/// The last round at column offset `o`: the products added, a `LAST`-bit reduction,
/// then the columns `o..o + n` normalised and shifted right by `LAST` bits into r.
fn last_round(s: &mut String, o: u32, products: &[(&str, &str)]) {
    let (n, b) = (SMALL_LIMBS, SMALL_BITS);
    add_products(s, o, products, "");
    let _ = writeln!(
        s,
        "    let m = (t[{o}] * FQ_INV) & 0x{:x}u;",
        (1u32 << LAST) - 1
    );
    for j in 0..n {
        let _ = writeln!(s, "    t[{}] += m * FQ_PS[{j}];", o + j);
    }
    let _ = writeln!(s, "    var nl: array<u32, {}>;\n    var cy = 0u;", n + 1);
    for j in 0..n {
        let _ = writeln!(
            s,
            "    {{\n        let v = t[{}] + cy;\n        nl[{j}] = v & 0x{MASK:x}u;\n        cy = v >> {b}u;\n    }}",
            o + j
        );
    }
    let _ = writeln!(s, "    nl[{n}] = cy;\n    var r: Fq;");
    for j in 0..n {
        let _ = writeln!(
            s,
            "    r[{j}] = (nl[{j}] >> {LAST}u) | ((nl[{}] << {}u) & 0x{MASK:x}u);",
            j + 1,
            b - LAST
        );
    }
}

/// The multiply of `shape`, operand scanning with the reduction interleaved, `k` rounds
/// per loop iteration (`k >= ROUNDS`: no loop). In the loop, round `r` of an iteration
/// works at column offset `r` and the iteration ends by moving the columns and the
/// walked operands' limbs down `k` places, so no array is indexed by a loop variable.
fn mul(k: u32, shape: Shape) -> String {
    let n = SMALL_LIMBS;
    let (iters, rem) = if k >= ROUNDS {
        (0, ROUNDS)
    } else {
        (ROUNDS / k, ROUNDS % k)
    };
    let tl = n + (k - 1).max(rem);
    let mut s = format!(
        "{}\n{} {{\n{}    var t: array<u32, {tl}>;\n",
        shape.doc, shape.signature, shape.prologue
    );
    for (_, y) in shape.products {
        let _ = writeln!(s, "    var {y}s = {y};");
    }
    if iters > 0 {
        let _ = writeln!(s, "    for (var i = 0u; i < {iters}u; i++) {{");
        for o in 0..k {
            round(&mut s, o, shape.products, "        ");
        }
        for j in 0..tl {
            let v = if j + k < tl {
                format!("t[{}]", j + k)
            } else {
                "0u".into()
            };
            let _ = writeln!(s, "        t[{j}] = {v};");
        }
        for (_, y) in shape.products {
            for j in 0..n - k {
                let _ = writeln!(s, "        {y}s[{j}] = {y}s[{}];", j + k);
            }
        }
        s.push_str("    }\n");
    }
    for o in 0..rem {
        round(&mut s, o, shape.products, "    ");
    }
    last_round(&mut s, rem, shape.products);
    let _ = writeln!(s, "    return {};\n}}", shape.ret);
    s
}
