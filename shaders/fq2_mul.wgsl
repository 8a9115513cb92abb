// Requires: fq2. The Fq2 multiply over any Fq: Karatsuba over three Fq products.

/// a * b by Karatsuba, three Fq products: with v0 = a0 b0 and v1 = a1 b1,
/// (a0 + a1 u)(b0 + b1 u) = (v0 - v1) + ((a0 + a1)(b0 + b1) - v0 - v1) u.
fn fq2_mul(a: Fq2, b: Fq2) -> Fq2 {
    let v0 = fq_mul(a.c0, b.c0);
    let v1 = fq_mul(a.c1, b.c1);
    let s = fq_mul(fq_add(a.c0, a.c1), fq_add(b.c0, b.c1));
    return Fq2(fq_sub(v0, v1), fq_sub(fq_sub(s, v0), v1));
}
