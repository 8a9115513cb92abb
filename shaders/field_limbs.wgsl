// Requires: bigint, the prelude's FQ_INV and FQ_PM2, a limb representation's constants
// and conversions (${P} = p, ${TWO_P} = 2p, ${ONE} = R mod p, ${R2} = R^2 mod p in
// limbs; fq_unpack, fq_pack_lazy), and its fq_mul and fq_sqr. Fq in ${N} limbs of ${B}
// bits in u32s, the representation both fast multiplies use (field29.wgsl, small.rs):
// Montgomery form with R = 2^256 as arkworks keeps Fq in memory, values kept lazily
// reduced (< 2p, every limb < 2^${B}); `fq_pack` gives the canonical value. Nothing
// branches on a value: selects instead, so a compiler that inlines every call
// (SwiftShader's) sees straight lines.

const FQ_MASK: u32 = ${MASK}u;

/// 0.
fn fq_zero() -> Fq {
    return Fq();
}

/// 1 in Montgomery form (R mod p).
fn fq_one() -> Fq {
    return ${ONE};
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
    return fq_minus_if_ge(s, ${TWO_P});
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
        let v = d[j] + select(0u, ${TWO_P}[j], wrapped) + c;
        d[j] = v & FQ_MASK;
        c = v >> ${B}u;
    }
    // @end
    return d;
}

/// a + p, not reduced (a < p): the same value at the top of the lazy range, for tests
/// of operations on lazily reduced inputs.
fn fq_unreduced(a: Fq) -> Fq {
    var s: Fq;
    var c = 0u;
    // @unroll j ${N}
    {
        let v = a[j] + ${P}[j] + c;
        s[j] = v & FQ_MASK;
        c = v >> ${B}u;
    }
    // @end
    return s;
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
        e |= a[j] ^ ${P}[j];
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
    return fq_minus_if_ge(a, ${P});
}

/// Canonical value to Montgomery form (a * R mod p).
fn fq_to_mont(a: Fq) -> Fq {
    return fq_mul(a, ${R2});
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
