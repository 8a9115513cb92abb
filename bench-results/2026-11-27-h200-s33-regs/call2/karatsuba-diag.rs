//! The radix-2^29 Fq's wide products (`shaders/field29_wide.wgsl`) by one level of
//! Karatsuba, generated for the group's limb count.
//!
//! A wide value is the columns of a product with no carry taken out, so the product of
//! A = A0 + x^h A1 and B = B0 + x^h B1 (x = 2^29, h = ceil(n / 2)) as
//! A0 B0 + x^h M + x^(2h) A1 B1, with M = (A0 + A1)(B0 + B1) - A0 B0 - A1 B1 formed
//! column by column, is the schoolbook product's columns exactly (a polynomial
//! identity: M's columns are the cross products' sums, never negative). It takes
//! 2 h^2 + (n - h)^2 limb products instead of n^2 (66 instead of 81 for BN254's nine
//! limbs, 147 instead of 196 for BLS12-381's fourteen) for a few column additions.
//!
//! Operands' limbs may be below 2^30 (Fq2's limb sums, `fq_add_limbs`): the sums
//! A0 + A1 then have limbs below 2^31 and a column of their product may pass 2^64, but
//! the columns wrap modulo 2^64 and M's columns, the cross products' sums, are below
//! 2 h 2^60 < 2^64, so M comes out exact; every column of the result is the schoolbook
//! one (below n 2^60).

use std::fmt::Write;

/// `fq_mul_wide(a, b) -> FqWide` for `n` limbs (operands with limbs below 2^30), by
/// Karatsuba as the module describes.
pub(crate) fn mul_wide(n: u32) -> String {
    let h = n.div_ceil(2);
    let m = n - h;
    let mut s = format!(
        "/// The columns of a * b (column k: the sum of a_i b_j over i + j = k) by one level\n\
         /// of Karatsuba ({} limb products; src/shader/karatsuba.rs). Limbs below 2^30.\n\
         fn fq_mul_wide(a: Fq, b: Fq) -> FqWide {{\n",
        2 * h * h + m * m
    );
    for (x, sx) in [("a", "sa"), ("b", "sb")] {
        for i in 0..h {
            if i < m {
                let _ = writeln!(s, "    let {sx}{i} = {x}[{i}] + {x}[{}];", h + i);
            } else {
                let _ = writeln!(s, "    let {sx}{i} = {x}[{i}];");
            }
        }
    }
    let _ = writeln!(s, "    var t: FqWide;\n    var c: array<u64, {}>;", 2 * h - 1);
    for i in 0..h {
        let _ = writeln!(s, "    {{\n        let ai = u64(a[{i}]);\n        let si = u64(sa{i});");
        for j in 0..h {
            let _ = writeln!(s, "        t[{}] += ai * u64(b[{j}]);", i + j);
            let _ = writeln!(s, "        c[{}] += si * u64(sb{j});", i + j);
        }
        s.push_str("    }\n");
    }
    for i in 0..m {
        let _ = writeln!(s, "    {{\n        let ai = u64(a[{}]);", h + i);
        for j in 0..m {
            let _ = writeln!(s, "        t[{}] += ai * u64(b[{}]);", 2 * h + i + j, h + j);
        }
        s.push_str("    }\n");
    }
    // M = C - A0 B0 - A1 B1 column by column, read before M is added over A0 B0.
    for k in 0..2 * h - 1 {
        if k < 2 * m - 1 {
            let _ = writeln!(s, "    c[{k}] -= t[{k}] + t[{}];", 2 * h + k);
        } else {
            let _ = writeln!(s, "    c[{k}] -= t[{k}];");
        }
    }
    for k in 0..2 * h - 1 {
        let _ = writeln!(s, "    t[{}] += c[{k}];", h + k);
    }
    s.push_str("    return t;\n}\n");
    s
}

/// `fq_sqr_wide(a) -> FqWide` for `n` limbs: the columns of a^2, each cross product
/// a_i a_j (i < j) once and the columns doubled, then the squares (n (n + 1) / 2 limb
/// products instead of n^2).
pub(crate) fn sqr_wide(n: u32) -> String {
    let mut s = format!(
        "/// The columns of a^2 ({} limb products: each cross product once, doubled).\n\
         fn fq_sqr_wide(a: Fq) -> FqWide {{\n    var t: FqWide;\n",
        n * (n + 1) / 2
    );
    for i in 0..n {
        if i + 1 < n {
            let _ = writeln!(s, "    {{\n        let ai = u64(a[{i}]);");
            for j in i + 1..n {
                let _ = writeln!(s, "        t[{}] += ai * u64(a[{j}]);", i + j);
            }
            s.push_str("    }\n");
        }
    }
    for k in 1..2 * n - 2 {
        let _ = writeln!(s, "    t[{k}] <<= 1u;");
    }
    for i in 0..n {
        let _ = writeln!(s, "    t[{}] += u64(a[{i}]) * u64(a[{i}]);", 2 * i);
    }
    s.push_str("    return t;\n}\n");
    s
}

#[cfg(test)]
mod tests {
    /// Runs the generated straight-line WGSL on the host: each `x[k] op= expr` line of
    /// the limb products and column sums, with u64 wrapping as the shader's.
    fn columns_of(src: &str, a: &[u64], b: &[u64], n: usize) -> Vec<u64> {
        use std::collections::HashMap;
        let h = n.div_ceil(2);
        let mut vars: HashMap<String, u64> = HashMap::new();
        for i in 0..n {
            vars.insert(format!("a[{i}]"), a[i]);
            vars.insert(format!("b[{i}]"), b[i]);
        }
        let mut t = vec![0u64; 2 * n - 1];
        let mut c = vec![0u64; 2 * h - 1];
        let val = |vars: &HashMap<String, u64>, e: &str| -> u64 {
            let e = e.trim().trim_start_matches("u64(").trim_end_matches(')');
            *vars.get(e).unwrap_or_else(|| panic!("unknown {e}"))
        };
        for line in src.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix("let ") {
                let (name, e) = rest.trim_end_matches(';').split_once(" = ").unwrap();
                let v = if let Some((x, y)) = e.split_once(" + ") {
                    val(&vars, x) + val(&vars, y)
                } else {
                    val(&vars, e)
                };
                vars.insert(name.to_string(), v);
                continue;
            }
            let idx = |s: &str| -> (char, usize) {
                let (arr, i) = s.trim().split_once('[').unwrap();
                (arr.chars().next().unwrap(), i.trim_end_matches(']').parse().unwrap())
            };
            if let Some((dst, e)) = line.trim_end_matches(';').split_once(" += ") {
                let (arr, k) = idx(dst);
                let v = if let Some((x, y)) = e.split_once(" * ") {
                    val(&vars, x).wrapping_mul(val(&vars, y))
                } else {
                    let (_, j) = idx(e);
                    c[j]
                };
                let cell = if arr == 't' { &mut t[k] } else { &mut c[k] };
                *cell = cell.wrapping_add(v);
            } else if let Some((dst, e)) = line.trim_end_matches(';').split_once(" -= ") {
                let (_, k) = idx(dst);
                let v = e
                    .split(" + ")
                    .map(|x| t[idx(x).1])
                    .fold(0u64, u64::wrapping_add);
                c[k] = c[k].wrapping_sub(v);
            } else if let Some(dst) = line.strip_suffix(" <<= 1u;") {
                let (_, k) = idx(dst);
                t[k] <<= 1;
            }
        }
        t
    }

    fn schoolbook(a: &[u64], b: &[u64], n: usize) -> Vec<u64> {
        let mut t = vec![0u64; 2 * n - 1];
        for i in 0..n {
            for j in 0..n {
                t[i + j] += a[i] * b[j];
            }
        }
        t
    }

    #[test]
    fn karatsuba_columns_are_the_schoolbook_columns() {
        use ark_std::rand::{rngs::StdRng, Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(33);
        for n in [9usize, 14] {
            let src = super::mul_wide(n as u32);
            for round in 0..50 {
                let limb = |rng: &mut StdRng| {
                    match round {
                        0 => (1 << 30) - 1,
                        1..=25 => rng.gen_range(0..1u64 << 30),
                        _ => rng.gen_range(0..1u64 << 29),
                    }
                };
                let a: Vec<u64> = (0..n).map(|_| limb(&mut rng)).collect();
                let b: Vec<u64> = (0..n).map(|_| limb(&mut rng)).collect();
                assert_eq!(columns_of(&src, &a, &b, n), schoolbook(&a, &b, n), "n = {n}");
            }
        }
    }

    #[test]
    fn square_columns_are_the_schoolbook_columns() {
        use ark_std::rand::{rngs::StdRng, Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(34);
        for n in [9usize, 14] {
            let src = super::sqr_wide(n as u32);
            for _ in 0..50 {
                let a: Vec<u64> = (0..n).map(|_| rng.gen_range(0..1u64 << 29)).collect();
                assert_eq!(columns_of(&src, &a, &a, n), schoolbook(&a, &a, n), "n = {n}");
            }
        }
    }
}
