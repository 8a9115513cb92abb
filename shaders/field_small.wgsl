// Requires: bigint, the prelude's FQ_INV and FQ_PM2, and the small-limb constants and
// conversions of the prelude (FQ_PS, FQ_2PS, FQ_ONES, FQ_R2S, fq_unpack, fq_pack_lazy,
// generated from the field parameters). Fq for the Portable32 path: ${N} limbs of ${B}
// bits in u32s, so that a limb product has ${B}+${B} bits and a column sums all the
// products of a Montgomery multiplication in a u32 with no carry handling inside its
// rounds (one 32-bit multiply-add per product, no 64-bit integers). Montgomery form with
// R = 2^256, exactly as arkworks keeps Fq in memory: ${ROUNDS} rounds reduce ${B} bits each
// and the last one ${LAST} bits. Values are kept lazily reduced, < 2p with every limb
// < 2^${B}; `fq_pack` gives the canonical value. Nothing branches on a value: selects
// instead, so a compiler that inlines every call (SwiftShader's) sees straight lines.

alias Fq = array<u32, ${N}>;

const FQ_MASK: u32 = ${MASK}u;

/// 0.
fn fq_zero() -> Fq {
    return Fq();
}

/// 1 in Montgomery form (R mod p).
fn fq_one() -> Fq {
    return FQ_ONES;
}

/// s - m if s >= m, else s.
fn fq_minus_if_ge(s: Fq, m: Fq) -> Fq {
    var d: Fq;
    var borrow = 0u;
    // @unroll j ${N}
    {
        let v = s[j] - m[j] - borrow;
        d[j] = v & FQ_MASK;
        borrow = v >> 31u;
    }
    // @end
    let keep = borrow != 0u;
    // @unroll j ${N}
    d[j] = select(d[j], s[j], keep);
    // @end
    return d;
}

/// a + b mod p (< 2p).
fn fq_add(a: Fq, b: Fq) -> Fq {
    var s: Fq;
    var c = 0u;
    // @unroll j ${N}
    {
        let v = a[j] + b[j] + c;
        s[j] = v & FQ_MASK;
        c = v >> ${B}u;
    }
    // @end
    return fq_minus_if_ge(s, FQ_2PS);
}

/// a - b mod p (< 2p).
fn fq_sub(a: Fq, b: Fq) -> Fq {
    var d: Fq;
    var borrow = 0u;
    // @unroll j ${N}
    {
        let v = a[j] - b[j] - borrow;
        d[j] = v & FQ_MASK;
        borrow = v >> 31u;
    }
    // @end
    // Add 2p back where the difference wrapped (2p or 0: no branch).
    let wrapped = borrow != 0u;
    var c = 0u;
    // @unroll j ${N}
    {
        let v = d[j] + select(0u, FQ_2PS[j], wrapped) + c;
        d[j] = v & FQ_MASK;
        c = v >> ${B}u;
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
        e |= a[j] ^ FQ_PS[j];
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
    return fq_minus_if_ge(a, FQ_PS);
}

/// Montgomery product a * b / 2^256 mod p (< 2p for inputs < 2p).
fn fq_mul(a: Fq, b: Fq) -> Fq {
    // Column j holds weight 2^(${B} j) relative to the rounds done so far; it gains at
    // most two products of < 2^(2 ${B}) per round over ${N} rounds plus one carry, which
    // the prelude checks to fit a u32.
    var t: array<u32, ${N}>;
    // b's limbs move down one per round, so a round reads limb 0 (no dynamic index when
    // the rounds stay a loop).
    var bs = b;
    // @unroll-opt i ${ROUNDS}
    {
        let bi = bs[0];
        // @unroll j ${N}
        t[j] += a[j] * bi;
        // @end
        let m = (t[0] * FQ_INV) & FQ_MASK;
        // @unroll j ${N}
        t[j] += m * FQ_PS[j];
        // @end
        t[1] += t[0] >> ${B}u;
        // @unroll j ${N_MINUS_1}
        {
            t[j] = t[j + 1u];
            bs[j] = bs[j + 1u];
        }
        // @end
        t[${N_MINUS_1}] = 0u;
    }
    // @end
    // Last round: the top limb of b, then a ${LAST}-bit reduction (${ROUNDS} * ${B} + ${LAST}
    // = 256) without a limb shift; the result is the columns' value / 2^${LAST}.
    let bl = bs[0];
    // @unroll j ${N}
    t[j] += a[j] * bl;
    // @end
    let m = (t[0] * FQ_INV) & ${LAST_MASK}u;
    // @unroll j ${N}
    t[j] += m * FQ_PS[j];
    // @end
    var n: array<u32, ${N_PLUS_1}>;
    var c = 0u;
    // @unroll j ${N}
    {
        let v = t[j] + c;
        n[j] = v & FQ_MASK;
        c = v >> ${B}u;
    }
    // @end
    n[${N}] = c;
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

/// Canonical value to Montgomery form (a * R mod p).
fn fq_to_mont(a: Fq) -> Fq {
    return fq_mul(a, FQ_R2S);
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
