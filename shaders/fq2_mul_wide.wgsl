// Requires: fq2, field29_wide. The Fq2 multiply over the radix-2^29 Fq (Wide64):
// Karatsuba with lazy reduction, three products and two Montgomery reductions (the
// plain Karatsuba of fq2_mul.wgsl reduces each of its three products).

/// a * b: with wide products v0 = a0 b0, v1 = a1 b1 and s = (a0 + a1)(b0 + b1),
/// c0 = redc(v0 - v1) and c1 = redc(s - v0 - v1) = redc(a0 b1 + a1 b0). The limb sums
/// are not carried, so s - v0 - v1 is exact column by column (never negative there).
fn fq2_mul(a: Fq2, b: Fq2) -> Fq2 {
    let v0 = fq_mul_wide(a.c0, b.c0);
    let v1 = fq_mul_wide(a.c1, b.c1);
    let c0 = fq_redc_wide(fq_wide_sub(v0, v1), true);
    let s = fq_mul_wide(fq_add_limbs(a.c0, a.c1), fq_add_limbs(b.c0, b.c1));
    let c1 = fq_redc_wide(fq_wide_sub(s, fq_wide_add(v0, v1)), false);
    return Fq2(c0, c1);
}
