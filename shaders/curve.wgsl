// Requires: Fq (field.wgsl over fq, or field29.wgsl), prelude (CURVE_B in Montgomery form). Short Weierstrass
// y^2 = x^3 + b (a = 0) points: affine (x, y) with (0, 0) encoding the point at infinity
// (not on the curve since b != 0), and XYZZ buckets (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2)
// with ZZ = 0 the point at infinity. Formulas: hyperelliptic.org EFD, "xyzz" for a = 0.
// The additions and doublings (xyzz_madd, xyzz_add, xyzz_dbl, xyzz_mdbl) come from
// curve_formulas.wgsl or curve_tape.wgsl (the builder picks one per unrolling mode).

/// An affine point; (0, 0) is the point at infinity.
struct Affine {
    x: Fq,
    y: Fq,
}

/// A point in XYZZ coordinates; zz == 0 is the point at infinity.
struct Xyzz {
    x: Fq,
    y: Fq,
    zz: Fq,
    zzz: Fq,
}

/// The point at infinity.
fn xyzz_zero() -> Xyzz {
    return Xyzz(Fq(), Fq(), Fq(), Fq());
}

/// Whether p is the point at infinity.
fn xyzz_is_inf(p: Xyzz) -> bool {
    return fq_is_zero(p.zz);
}

/// Whether a is the point at infinity.
fn affine_is_inf(a: Affine) -> bool {
    return fq_is_zero(a.x) && fq_is_zero(a.y);
}

/// -a.
fn affine_neg(a: Affine) -> Affine {
    return Affine(a.x, fq_neg(a.y));
}

/// -p.
fn xyzz_neg(p: Xyzz) -> Xyzz {
    return Xyzz(p.x, fq_neg(p.y), p.zz, p.zzz);
}

/// a as an XYZZ point.
fn xyzz_from_affine(a: Affine) -> Xyzz {
    if (affine_is_inf(a)) {
        return xyzz_zero();
    }
    return Xyzz(a.x, a.y, fq_one(), fq_one());
}

/// k * p for a small k, by double-and-add from the top bit.
fn xyzz_mul_small(p: Xyzz, k: u32) -> Xyzz {
    var r = xyzz_zero();
    if (k == 0u) {
        return r;
    }
    for (var i = i32(firstLeadingBit(k)); i >= 0; i--) {
        r = xyzz_dbl(r);
        if (((k >> u32(i)) & 1u) != 0u) {
            r = xyzz_add(r, p);
        }
    }
    return r;
}

/// p in affine form (one inversion); infinity maps to (0, 0).
fn xyzz_to_affine(p: Xyzz) -> Affine {
    if (xyzz_is_inf(p)) {
        return Affine(Fq(), Fq());
    }
    let zzz_inv = fq_inv(p.zzz);
    // With ZZ^3 = ZZZ^2: (ZZ / ZZZ)^2 = ZZ^2 / ZZ^3 = 1 / ZZ, so one inversion serves both.
    let t = fq_mul(p.zz, zzz_inv);
    let zz_inv = fq_sqr(t);
    return Affine(fq_mul(p.x, zz_inv), fq_mul(p.y, zzz_inv));
}

/// Whether a satisfies y^2 = x^3 + b; the point at infinity counts as valid.
fn affine_on_curve(a: Affine) -> bool {
    if (affine_is_inf(a)) {
        return true;
    }
    let rhs = fq_add(fq_mul(fq_sqr(a.x), a.x), fq_unpack(CURVE_B));
    return fq_eq(fq_sqr(a.y), rhs);
}
