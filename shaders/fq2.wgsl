// Requires: an Fq (field.wgsl over fq, field29.wgsl or field_small.wgsl), and an Fq2
// multiply after it (fq2_mul.wgsl, or fq2_mul_wide.wgsl over field29). Fq2 = Fq[u] /
// (u^2 + 1), the base field of BN254's and BLS12-381's G2 (both have u^2 = -1): an
// element is c0 + c1 u, each coordinate in the Fq representation of the path (values
// as lazily reduced as that Fq keeps them).

struct Fq2 {
    c0: Fq,
    c1: Fq,
}

/// a + b.
fn fq2_add(a: Fq2, b: Fq2) -> Fq2 {
    return Fq2(fq_add(a.c0, b.c0), fq_add(a.c1, b.c1));
}

/// a - b.
fn fq2_sub(a: Fq2, b: Fq2) -> Fq2 {
    return Fq2(fq_sub(a.c0, b.c0), fq_sub(a.c1, b.c1));
}

/// -a.
fn fq2_neg(a: Fq2) -> Fq2 {
    return Fq2(fq_neg(a.c0), fq_neg(a.c1));
}

/// 2a.
fn fq2_double(a: Fq2) -> Fq2 {
    return Fq2(fq_double(a.c0), fq_double(a.c1));
}

/// a^2, two Fq products: (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u.
fn fq2_sqr(a: Fq2) -> Fq2 {
    let c0 = fq_mul(fq_add(a.c0, a.c1), fq_sub(a.c0, a.c1));
    return Fq2(c0, fq_double(fq_mul(a.c0, a.c1)));
}

/// a * b - c * d.
fn fq2_mul_sub(a: Fq2, b: Fq2, c: Fq2, d: Fq2) -> Fq2 {
    return fq2_sub(fq2_mul(a, b), fq2_mul(c, d));
}

/// a == b.
fn fq2_eq(a: Fq2, b: Fq2) -> bool {
    return fq_eq(a.c0, b.c0) && fq_eq(a.c1, b.c1);
}

/// 0.
fn fq2_zero() -> Fq2 {
    return Fq2(fq_zero(), fq_zero());
}

/// 1 (Montgomery form).
fn fq2_one() -> Fq2 {
    return Fq2(fq_one(), fq_zero());
}

/// a == 0.
fn fq2_is_zero(a: Fq2) -> bool {
    return fq_is_zero(a.c0) && fq_is_zero(a.c1);
}

/// a^-1 = (a0 - a1 u) / (a0^2 + a1^2) (u^2 = -1); 0 maps to 0. Slow (one Fq inversion).
fn fq2_inv(a: Fq2) -> Fq2 {
    let t = fq_inv(fq_add(fq_sqr(a.c0), fq_sqr(a.c1)));
    return Fq2(fq_mul(a.c0, t), fq_neg(fq_mul(a.c1, t)));
}
