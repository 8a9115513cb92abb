// Requires: prelude (LIMBS). Multi-precision unsigned integers on 32-bit limbs,
// least significant limb first.

alias Big = array<u32, LIMBS>;

/// A big integer and the carry (or borrow) out of its top limb.
struct BigCarry {
    v: Big,
    carry: u32,
}

/// a + b; carry is 1 when the sum does not fit in LIMBS limbs.
fn big_add(a: Big, b: Big) -> BigCarry {
    var r: Big;
    var c = 0u;
    for (var i = 0u; i < LIMBS; i++) {
        let s = a[i] + b[i];
        let s2 = s + c;
        r[i] = s2;
        c = select(0u, 1u, s < a[i]) + select(0u, 1u, s2 < s);
    }
    return BigCarry(r, c);
}

/// a - b; carry is 1 when b > a (the result wrapped).
fn big_sub(a: Big, b: Big) -> BigCarry {
    var r: Big;
    var borrow = 0u;
    for (var i = 0u; i < LIMBS; i++) {
        let d = a[i] - b[i];
        let d2 = d - borrow;
        r[i] = d2;
        borrow = select(0u, 1u, a[i] < b[i]) + select(0u, 1u, d < borrow);
    }
    return BigCarry(r, borrow);
}

/// a >= b.
fn big_gte(a: Big, b: Big) -> bool {
    for (var k = 0u; k < LIMBS; k++) {
        let i = LIMBS - 1u - k;
        if (a[i] != b[i]) {
            return a[i] > b[i];
        }
    }
    return true;
}

/// a == 0.
fn big_is_zero(a: Big) -> bool {
    var acc = 0u;
    for (var i = 0u; i < LIMBS; i++) {
        acc |= a[i];
    }
    return acc == 0u;
}

/// a == b.
fn big_eq(a: Big, b: Big) -> bool {
    var acc = 0u;
    for (var i = 0u; i < LIMBS; i++) {
        acc |= a[i] ^ b[i];
    }
    return acc == 0u;
}
