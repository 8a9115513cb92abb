// Requires: bigint, a multiply module (mac), and the GLV constants and glv_k1 / glv_k2
// generated from ark-bn254 (src/shader/glv.rs, which derives the method and the
// bounds). The split of a scalar k < r into k1 + lambda k2 (mod r), |k1|, |k2| < 2^127.

/// a * b mod 2^256.
fn big_mul_lo(a: Big, b: Big) -> Big {
    var t: Big;
    // @unroll i LIMBS
    {
        var c = 0u;
        // @unroll j LIMBS
        if (i + j < LIMBS) {
            let r = mac(t[min(i + j, LIMBS - 1u)], a[i], b[j], c);
            t[min(i + j, LIMBS - 1u)] = r.x;
            c = r.y;
        }
        // @end
    }
    // @end
    return t;
}

/// round(a * b / 2^256): the high half of a * b + 2^255.
fn big_mul_round_hi(a: Big, b: Big) -> Big {
    var t: array<u32, ${LIMBS_X2}>;
    t[LIMBS - 1u] = 0x80000000u;
    // @unroll i LIMBS
    {
        var c = 0u;
        // @unroll j LIMBS
        {
            let r = mac(t[i + j], a[i], b[j], c);
            t[i + j] = r.x;
            c = r.y;
        }
        // @end
        t[i + LIMBS] = c;
    }
    // @end
    var hi: Big;
    // @unroll i LIMBS
    hi[i] = t[i + LIMBS];
    // @end
    return hi;
}

/// |k1| and |k2| of a split, and whether each is negative.
struct GlvSplit {
    k1: Big,
    k2: Big,
    neg1: bool,
    neg2: bool,
}

/// |v| and whether v (a two's complement 256-bit value) is negative.
fn big_abs(v: Big) -> GlvHalf {
    let neg = (v[LIMBS - 1u] >> 31u) != 0u;
    if (neg) {
        var zero: Big;
        return GlvHalf(big_sub(zero, v).v, true);
    }
    return GlvHalf(v, false);
}

struct GlvHalf {
    v: Big,
    neg: bool,
}

/// k (canonical, < r) as k1 + lambda k2.
fn glv_split(k: Big) -> GlvSplit {
    let q1 = big_mul_round_hi(k, GLV_G1);
    let q2 = big_mul_round_hi(k, GLV_G2);
    let h1 = big_abs(glv_k1(k, q1, q2));
    let h2 = big_abs(glv_k2(q1, q2));
    return GlvSplit(h1.v, h2.v, h1.neg, h2.neg);
}
