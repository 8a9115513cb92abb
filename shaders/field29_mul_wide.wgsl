// Requires: field29_wide.wgsl (FqWide). A template over the limb count, filled per group
// (the figures here are BN254's). The schoolbook wide product: the G1 groups' kernels
// take it (src/shader/karatsuba.rs forms the same columns in fewer products for the
// kernels over Fq2).

/// The columns of a * b: column k is the sum of a_i b_j over i + j = k. With limbs <
/// 2^30 a column holds at most ${N} products < 2^60.
fn fq_mul_wide(a: Fq, b: Fq) -> FqWide {
    var t: FqWide;
    // @unroll i ${N}
    {
        let ai = u64(a[i]);
        // @unroll j ${N}
        t[i + j] += ai * u64(b[j]);
        // @end
    }
    // @end
    return t;
}
