// Requires: bigint, a multiply module (mac), and the ${FC} constants of the prelude
// (${FC}_P modulus, ${FC}_R = R mod p, ${FC}_R2 = R^2 mod p, ${FC}_INV = -p^-1 mod 2^32,
// ${FC}_PM2 = p - 2). Montgomery arithmetic modulo ${FC}_P with R = 2^(32*LIMBS); values
// are kept in Montgomery form, fully reduced (< p), as arkworks keeps them in memory.

/// 0.
fn ${F}_zero() -> Big {
    return Big();
}

/// 1 in Montgomery form (R mod p).
fn ${F}_one() -> Big {
    return ${FC}_R;
}

/// a from the memory layout (the same: this field's limbs are 32-bit words).
fn ${F}_unpack(a: Big) -> Big {
    return a;
}

/// a in the memory layout (values are kept fully reduced, so a itself).
fn ${F}_pack(a: Big) -> Big {
    return a;
}

/// The same as ${F}_pack (for the radix-2^29 field, which keeps values < 2p, it skips
/// the final reduction).
fn ${F}_pack_lazy(a: Big) -> Big {
    return a;
}

/// a == 0.
fn ${F}_is_zero(a: Big) -> bool {
    return big_is_zero(a);
}

/// a + b mod p.
fn ${F}_add(a: Big, b: Big) -> Big {
    let s = big_add(a, b);
    let d = big_sub(s.v, ${FC}_P);
    // Keep the reduced value when the sum overflowed or is >= p.
    return big_select(s.v, d.v, s.carry != 0u || d.carry == 0u);
}

/// a - b mod p.
fn ${F}_sub(a: Big, b: Big) -> Big {
    let d = big_sub(a, b);
    // Add p back when the difference wrapped (p or 0: no branch).
    return big_add(d.v, big_select(Big(), ${FC}_P, d.carry != 0u)).v;
}

/// a itself (values are kept fully reduced; the limb forms return a + p here, for tests
/// of operations on lazily reduced inputs).
fn ${F}_unreduced(a: Big) -> Big {
    return a;
}

/// -a mod p.
fn ${F}_neg(a: Big) -> Big {
    return big_select(big_sub(${FC}_P, a).v, a, big_is_zero(a));
}

/// 2a mod p.
fn ${F}_double(a: Big) -> Big {
    return ${F}_add(a, a);
}

/// Montgomery product a * b * R^-1 mod p (CIOS, one reduction step per limb of b).
fn ${F}_mul(a: Big, b: Big) -> Big {
    var t: array<u32, LIMBS_PLUS_2>;
    // The outer loop is unrolled in `Unroll::Full` builds and kept as a loop in
    // `Unroll::Compact` ones (8x less code for the driver to compile).
    // @unroll-opt i LIMBS
    {
        let bi = big_limb(b, i);
        var c = 0u;
        // @unroll j LIMBS
        {
            let r = mac(t[j], a[j], bi, c);
            t[j] = r.x;
            c = r.y;
        }
        // @end
        let s = t[LIMBS] + c;
        t[LIMBS + 1u] = select(0u, 1u, s < c);
        t[LIMBS] = s;
        let m = t[0] * ${FC}_INV;
        c = mac(t[0], m, ${FC}_P[0], 0u).y;
        // @unroll j LIMBS_MINUS_1
        {
            let r = mac(t[j + 1u], m, ${FC}_P[j + 1u], c);
            t[j] = r.x;
            c = r.y;
        }
        // @end
        let s2 = t[LIMBS] + c;
        t[LIMBS - 1u] = s2;
        t[LIMBS] = t[LIMBS + 1u] + select(0u, 1u, s2 < c);
    }
    // @end
    var out: Big;
    // @unroll i LIMBS
    out[i] = t[i];
    // @end
    let d = big_sub(out, ${FC}_P);
    return big_select(out, d.v, t[LIMBS] != 0u || d.carry == 0u);
}

/// a * b - c * d mod p.
fn ${F}_mul_sub(a: Big, b: Big, c: Big, d: Big) -> Big {
    return ${F}_sub(${F}_mul(a, b), ${F}_mul(c, d));
}

/// a^2 in Montgomery form.
fn ${F}_sqr(a: Big) -> Big {
    return ${F}_mul(a, a);
}

/// a == b (both reduced).
fn ${F}_eq(a: Big, b: Big) -> bool {
    return big_eq(a, b);
}

/// Canonical value to Montgomery form (a * R mod p).
fn ${F}_to_mont(a: Big) -> Big {
    return ${F}_mul(a, ${FC}_R2);
}

/// Montgomery form to canonical value (a * R^-1 mod p).
fn ${F}_from_mont(a: Big) -> Big {
    var one: Big;
    one[0] = 1u;
    return ${F}_mul(a, one);
}

/// a^-1 by Fermat (a^(p-2)); 0 maps to 0. Slow: for tests and final conversions only.
fn ${F}_inv(a: Big) -> Big {
    var r = ${F}_one();
    for (var k = 0u; k < LIMBS * 32u; k++) {
        let bit = LIMBS * 32u - 1u - k;
        r = ${F}_sqr(r);
        if (((${FC}_PM2[bit / 32u] >> (bit % 32u)) & 1u) != 0u) {
            r = ${F}_mul(r, a);
        }
    }
    return r;
}
