// Requires: Fq with fq_mul and fq_sub. a b - c d as two Montgomery products, for limbs
// whose wide product's columns leave no room to sum a second product's before one
// reduction (30-bit limbs, src/shader/params.rs `radix_bits`).

/// a * b - c * d mod p (< 2p).
fn fq_mul_sub(a: Fq, b: Fq, c: Fq, d: Fq) -> Fq {
    return fq_sub(fq_mul(a, b), fq_mul(c, d));
}
