// Requires: field29.wgsl and field_limbs.wgsl for the group's ${N} limbs (FQ_P29, FQ_MASK,
// fq_minus_if_ge). A template over the limb count, filled per group (the figures here are
// BN254's). The radix-2^29 Fq's product and its Montgomery reduction as separate steps,
// so that a sum or difference of products takes one reduction (lazy reduction: Fq2's
// Karatsuba multiply, fq2_mul_wide.wgsl, and `fq_mul_sub`). A wide value is the 2 * ${N} - 1 columns of
// products, each a u64 with no carry taken out; `fq_mul_wide`, which forms one, comes
// beside this file (field29_mul_wide.wgsl, or by Karatsuba from src/shader/karatsuba.rs).

alias FqWide = array<u64, ${N_X2_MINUS_1}>;

/// a + b limb by limb, no carries: limbs < 2^30 (a Karatsuba sum for `fq_mul_wide`).
fn fq_add_limbs(a: Fq, b: Fq) -> Fq {
    var s: Fq;
    // @unroll j ${N}
    s[j] = a[j] + b[j];
    // @end
    return s;
}

/// Column-wise a + b.
fn fq_wide_add(a: FqWide, b: FqWide) -> FqWide {
    var s: FqWide;
    // @unroll k ${N_X2_MINUS_1}
    s[k] = a[k] + b[k];
    // @end
    return s;
}

/// Column-wise a - b (two's complement: a column may go negative).
fn fq_wide_sub(a: FqWide, b: FqWide) -> FqWide {
    var d: FqWide;
    // @unroll k ${N_X2_MINUS_1}
    d[k] = a[k] - b[k];
    // @end
    return d;
}

/// a * b - c * d mod p (< 2p) with one reduction: both products' columns, their
/// difference reduced signed (each product < 4p^2 for inputs < 2p).
fn fq_mul_sub(a: Fq, b: Fq, c: Fq, d: Fq) -> Fq {
    return fq_redc_wide(fq_wide_sub(fq_mul_wide(a, b), fq_mul_wide(c, d)), true);
}

/// x >> 29, arithmetic (sign-extending) where `signed`: the carry out of a column.
fn fq_carry29(x: u64, signed: bool) -> u64 {
    if (signed) {
        return bitcast<u64>(bitcast<i64>(x) >> 29u);
    }
    return x >> 29u;
}

/// Montgomery reduction of the wide value T of columns `t`: T / 2^256 mod p, < 2p.
/// `signed`: columns are two's complement and -4p^2 < T < 4p^2 (a difference of two
/// products of values < 2p); the reduction gives (T + M p) / 2^256 in (-p, 2p) and a
/// negative result gets p added. Otherwise 0 <= T < 8p^2 (a sum of two such products)
/// with every column < 2^64, giving a result in [0, 8p^2 / 2^256 + p), below 3p for
/// every supported p (p < 2^256 / 4 and p < 2^384 / 4), that loses p if >= p. Rounds as
/// fq_mul's: eight of 29 bits and a last of 24 (BN254).
fn fq_redc_wide(t_in: FqWide, signed: bool) -> Fq {
    var t = t_in;
    // @unroll i ${ROUNDS}
    {
        let m = u64((u32(t[i]) * FQ_INV) & FQ_MASK);
        // @unroll j ${N}
        t[i + j] += m * u64(FQ_P29[j]);
        // @end
        t[i + 1u] += fq_carry29(t[i], signed);
    }
    // @end
    let m = u64((u32(t[${ROUNDS}]) * FQ_INV) & ${LAST_MASK}u);
    // @unroll j ${N}
    t[${ROUNDS} + j] += m * u64(FQ_P29[j]);
    // @end
    // Columns ${ROUNDS}.. hold the result times 2^${LAST}: carry them into limbs, then
    // shift.
    var n: array<u32, ${N_PLUS_1}>;
    var c = 0lu;
    // @unroll j ${N}
    {
        let v = t[${ROUNDS} + j] + c;
        n[j] = u32(v) & FQ_MASK;
        c = fq_carry29(v, signed);
    }
    // @end
    n[${N}] = u32(c);
    var r: Fq;
    // @unroll j ${N}
    r[j] = (n[j] >> ${LAST}u) | ((n[j + 1u] << ${HIGH}u) & FQ_MASK);
    // @end
    if (!signed) {
        return fq_minus_if_ge(r, FQ_P29);
    }
    // A negative result (final carry < 0) is r - 2^(29 ${N}) as limbs: adding p wraps it
    // into [0, p).
    let negative = bitcast<i64>(c) < 0li;
    var s: Fq;
    var k = 0u;
    // @unroll j ${N}
    {
        let v = r[j] + select(0u, FQ_P29[j], negative) + k;
        s[j] = v & FQ_MASK;
        k = v >> 29u;
    }
    // @end
    return s;
}
