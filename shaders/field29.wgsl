// Requires: SHADER_INT64, bigint, and the prelude's radix-2^29 constants (FQ_P29,
// FQ_2P29, FQ_ONE29, FQ_R2_29, FQ_INV, FQ_PM2, and the generated fq_unpack / fq_pack).
// Fq for the Wide64 path (a template over the limb count, filled per group; the figures
// here are BN254's):
// nine 29-bit limbs in u32s, so the multiply sums 58-bit limb
// products in 64-bit columns with no carry handling inside its rounds (one 32x32->64
// multiply-add per product). Montgomery form with R = 2^256, exactly as arkworks keeps
// Fq in memory: eight rounds reduce 29 bits each and the last one 24 bits. Values are
// kept lazily reduced, < 2p with every limb < 2^29; `fq_pack` gives the canonical value.

alias Fq = array<u32, ${N}>;

const M29: u32 = 0x1fffffffu;

/// 0.
fn fq_zero() -> Fq {
    return Fq();
}

/// 1 in Montgomery form (R mod p).
fn fq_one() -> Fq {
    return FQ_ONE29;
}

/// s - m if s >= m, else s.
fn fq_minus_if_ge(s: Fq, m: Fq) -> Fq {
    var d: Fq;
    var borrow = 0u;
    // @unroll j ${N}
    {
        let v = s[j] - m[j] - borrow;
        d[j] = v & M29;
        borrow = v >> 31u;
    }
    // @end
    if (borrow != 0u) {
        return s;
    }
    return d;
}

/// s - 2p if s >= 2p, else s (s < 4p).
fn fq_reduce_2p(s: Fq) -> Fq {
    return fq_minus_if_ge(s, FQ_2P29);
}

/// a + b mod p (< 2p).
fn fq_add(a: Fq, b: Fq) -> Fq {
    var s: Fq;
    var c = 0u;
    // @unroll j ${N}
    {
        let v = a[j] + b[j] + c;
        s[j] = v & M29;
        c = v >> 29u;
    }
    // @end
    return fq_reduce_2p(s);
}

/// a - b mod p (< 2p).
fn fq_sub(a: Fq, b: Fq) -> Fq {
    var d: Fq;
    var borrow = 0u;
    // @unroll j ${N}
    {
        let v = a[j] - b[j] - borrow;
        d[j] = v & M29;
        borrow = v >> 31u;
    }
    // @end
    if (borrow == 0u) {
        return d;
    }
    var c = 0u;
    // @unroll j ${N}
    {
        let v = d[j] + FQ_2P29[j] + c;
        d[j] = v & M29;
        c = v >> 29u;
    }
    // @end
    return d;
}

/// -a mod p.
fn fq_neg(a: Fq) -> Fq {
    return fq_sub(Fq(), a);
}

/// 2a mod p.
fn fq_double(a: Fq) -> Fq {
    return fq_add(a, a);
}

/// a == 0 mod p (a < 2p: a is 0 or p).
fn fq_is_zero(a: Fq) -> bool {
    var z = 0u;
    var e = 0u;
    // @unroll j ${N}
    {
        z |= a[j];
        e |= a[j] ^ FQ_P29[j];
    }
    // @end
    return z == 0u || e == 0u;
}

/// a == b mod p.
fn fq_eq(a: Fq, b: Fq) -> bool {
    return fq_is_zero(fq_sub(a, b));
}

/// a mod p, fully reduced (a < 2p).
fn fq_canonical(a: Fq) -> Fq {
    return fq_minus_if_ge(a, FQ_P29);
}

/// Montgomery product a * b / 2^256 mod p (< 2p for inputs < 2p).
fn fq_mul(a: Fq, b: Fq) -> Fq {
    // Column j holds weight 2^(29 j) relative to the rounds done so far; every column
    // stays below 18 products of < 2^58 plus a carry, far from 2^64.
    var t: array<u64, ${N}>;
    // @unroll i ${ROUNDS}
    {
        let bi = u64(b[i]);
        // @unroll j ${N}
        t[j] += u64(a[j]) * bi;
        // @end
        let m = u64((u32(t[0]) * FQ_INV) & M29);
        // @unroll j ${N}
        t[j] += m * u64(FQ_P29[j]);
        // @end
        t[1] += t[0] >> 29u;
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
        n[j] = u32(v) & M29;
        c = v >> 29u;
    }
    // @end
    n[${N}] = u32(c);
    var r: Fq;
    // @unroll j ${N}
    r[j] = (n[j] >> ${LAST}u) | ((n[j + 1u] << ${HIGH}u) & M29);
    // @end
    return r;
}

/// a^2 in Montgomery form.
fn fq_sqr(a: Fq) -> Fq {
    return fq_mul(a, a);
}

/// Canonical value to Montgomery form (a * R mod p).
fn fq_to_mont(a: Fq) -> Fq {
    return fq_mul(a, FQ_R2_29);
}

/// Montgomery form to canonical value (a * R^-1 mod p).
fn fq_from_mont(a: Fq) -> Fq {
    var one: Fq;
    one[0] = 1u;
    return fq_mul(a, one);
}

/// a^-1 by Fermat (a^(p-2)); 0 maps to 0. Slow: for tests and final conversions only.
fn fq_inv(a: Fq) -> Fq {
    var r = fq_one();
    for (var k = 0u; k < LIMBS * 32u; k++) {
        let bit = LIMBS * 32u - 1u - k;
        r = fq_sqr(r);
        if (((FQ_PM2[bit / 32u] >> (bit % 32u)) & 1u) != 0u) {
            r = fq_mul(r, a);
        }
    }
    return r;
}
