// Requires: prelude (LIMBS). Multi-precision unsigned integers on 32-bit limbs,
// least significant limb first. Limb loops are unrolled by the builder (`@unroll`), so
// every index is a constant and values stay in registers.

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
    // @unroll i LIMBS
    {
        let s = a[i] + b[i];
        let s2 = s + c;
        r[i] = s2;
        c = select(0u, 1u, s < a[i]) + select(0u, 1u, s2 < s);
    }
    // @end
    return BigCarry(r, c);
}

/// a - b; carry is 1 when b > a (the result wrapped).
fn big_sub(a: Big, b: Big) -> BigCarry {
    var r: Big;
    var borrow = 0u;
    // @unroll i LIMBS
    {
        let d = a[i] - b[i];
        let d2 = d - borrow;
        r[i] = d2;
        borrow = select(0u, 1u, a[i] < b[i]) + select(0u, 1u, d < borrow);
    }
    // @end
    return BigCarry(r, borrow);
}

/// b where c is true, else a (limb by limb, without a branch: shader compilers that
/// inline everything, such as SwiftShader's, slow down sharply on many small branches).
fn big_select(a: Big, b: Big, c: bool) -> Big {
    var r: Big;
    // @unroll i LIMBS
    r[i] = select(a[i], b[i], c);
    // @end
    return r;
}

/// a >= b.
fn big_gte(a: Big, b: Big) -> bool {
    var gt = false;
    var lt = false;
    // From the top limb down: the first differing limb decides.
    // @unroll k LIMBS
    {
        let i = LIMBS - 1u - k;
        let undecided = !gt && !lt;
        gt = gt || (undecided && a[i] > b[i]);
        lt = lt || (undecided && a[i] < b[i]);
    }
    // @end
    return !lt;
}

/// a == 0.
fn big_is_zero(a: Big) -> bool {
    var acc = 0u;
    // @unroll i LIMBS
    acc |= a[i];
    // @end
    return acc == 0u;
}

/// a == b.
fn big_eq(a: Big, b: Big) -> bool {
    var acc = 0u;
    // @unroll i LIMBS
    acc |= a[i] ^ b[i];
    // @end
    return acc == 0u;
}

/// Limb i of a (0 when i >= LIMBS), without dynamic indexing.
fn big_limb(a: Big, i: u32) -> u32 {
    var r = 0u;
    // @unroll k LIMBS
    r = select(r, a[k], i == k);
    // @end
    return r;
}
