// Requires: SHADER_INT64, the prelude's FQ_INV and radix constants (FQ_P29), and
// field_limbs.wgsl instantiated for the group's limbs (the rest of this field). A
// template over the limb count and width (${B} bits: 29, or 30 for BLS12-381's Fq outside
// Fq2, `params::radix_bits`), filled per group (the figures here are BN254's).
// The Wide64 path's Fq multiply: nine 29-bit limbs in u32s, so the multiply sums 58-bit limb
// products in 64-bit columns with no carry handling inside its rounds (one 32x32->64
// multiply-add per product). Montgomery form with R = 2^256, exactly as arkworks keeps
// Fq in memory: eight rounds reduce 29 bits each and the last one 24 bits; values stay
// < 2p with every limb < 2^29. With 30-bit limbs a column's products over every round
// would overflow 64 bits, so the rounds carry every column into the next once, midway
// (the block that `params::field29` writes at the start of a round; none for 29 bits).

alias Fq = array<u32, ${N}>;

/// Montgomery product a * b / 2^256 mod p (< 2p for inputs < 2p).
fn fq_mul(a: Fq, b: Fq) -> Fq {
    // Column j holds weight 2^(29 j) relative to the rounds done so far; every column
    // stays below 18 products of < 2^58 plus a carry, far from 2^64.
    var t: array<u64, ${N}>;
    // @unroll i ${ROUNDS}
    {
        ${NORMALIZE}
        let bi = u64(b[i]);
        // @unroll j ${N}
        t[j] += u64(a[j]) * bi;
        // @end
        let m = u64((u32(t[0]) * FQ_INV) & FQ_MASK);
        // @unroll j ${N}
        t[j] += m * u64(FQ_P29[j]);
        // @end
        t[1] += t[0] >> ${B}u;
        // @unroll j ${N_MINUS_1}
        t[j] = t[j + 1u];
        // @end
        t[${N_MINUS_1}] = 0lu;
    }
    // @end
    // Last round: limb 8 of b, then a 24-bit reduction (8 * 29 + 24 = 256) without a
    // limb shift; the result is the columns' value / 2^24.
    let b8 = u64(b[${ROUNDS}]);
    // @unroll j ${N}
    t[j] += u64(a[j]) * b8;
    // @end
    let m = u64((u32(t[0]) * FQ_INV) & ${LAST_MASK}u);
    // @unroll j ${N}
    t[j] += m * u64(FQ_P29[j]);
    // @end
    var n: array<u32, ${N_PLUS_1}>;
    var c = 0lu;
    // @unroll j ${N}
    {
        let v = t[j] + c;
        n[j] = u32(v) & FQ_MASK;
        c = v >> ${B}u;
    }
    // @end
    n[${N}] = u32(c);
    var r: Fq;
    // @unroll j ${N}
    r[j] = (n[j] >> ${LAST}u) | ((n[j + 1u] << ${HIGH}u) & FQ_MASK);
    // @end
    return r;
}

/// a^2 in Montgomery form.
fn fq_sqr(a: Fq) -> Fq {
    return fq_mul(a, a);
}

