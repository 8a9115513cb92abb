// Requires: Fq (field.wgsl over fq, or field29.wgsl), prelude (CURVE_B in Montgomery form). Short Weierstrass
// y^2 = x^3 + b (a = 0) points: affine (x, y) with (0, 0) encoding the point at infinity
// (not on the curve since b != 0), and XYZZ buckets (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2)
// with ZZ = 0 the point at infinity. Formulas: hyperelliptic.org EFD, "xyzz" for a = 0.

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

/// 2a for affine a (mdbl-2008-s-1).
fn xyzz_mdbl(a: Affine) -> Xyzz {
    if (affine_is_inf(a)) {
        return xyzz_zero();
    }
    let u = fq_double(a.y);
    let v = fq_sqr(u);
    let w = fq_mul(u, v);
    let s = fq_mul(a.x, v);
    let xx = fq_sqr(a.x);
    let m = fq_add(fq_double(xx), xx);
    let x3 = fq_sub(fq_sqr(m), fq_double(s));
    let y3 = fq_sub(fq_mul(m, fq_sub(s, x3)), fq_mul(w, a.y));
    return Xyzz(x3, y3, v, w);
}

/// 2p (dbl-2008-s-1).
fn xyzz_dbl(p: Xyzz) -> Xyzz {
    if (xyzz_is_inf(p)) {
        return p;
    }
    let u = fq_double(p.y);
    let v = fq_sqr(u);
    let w = fq_mul(u, v);
    let s = fq_mul(p.x, v);
    let xx = fq_sqr(p.x);
    let m = fq_add(fq_double(xx), xx);
    let x3 = fq_sub(fq_sqr(m), fq_double(s));
    let y3 = fq_sub(fq_mul(m, fq_sub(s, x3)), fq_mul(w, p.y));
    return Xyzz(x3, y3, fq_mul(v, p.zz), fq_mul(w, p.zzz));
}

/// p + a for affine a (madd-2008-s), handling infinity, p == a and p == -a.
fn xyzz_madd(p: Xyzz, a: Affine) -> Xyzz {
    if (affine_is_inf(a)) {
        return p;
    }
    if (xyzz_is_inf(p)) {
        return xyzz_from_affine(a);
    }
    let u2 = fq_mul(a.x, p.zz);
    let s2 = fq_mul(a.y, p.zzz);
    let pp_ = fq_sub(u2, p.x);
    let r = fq_sub(s2, p.y);
    if (fq_is_zero(pp_)) {
        if (fq_is_zero(r)) {
            return xyzz_mdbl(a);
        }
        return xyzz_zero();
    }
    let pp = fq_sqr(pp_);
    let ppp = fq_mul(pp_, pp);
    let q = fq_mul(p.x, pp);
    let x3 = fq_sub(fq_sub(fq_sqr(r), ppp), fq_double(q));
    let y3 = fq_sub(fq_mul(r, fq_sub(q, x3)), fq_mul(p.y, ppp));
    return Xyzz(x3, y3, fq_mul(p.zz, pp), fq_mul(p.zzz, ppp));
}

/// p + q (add-2008-s), handling infinity, p == q and p == -q.
fn xyzz_add(p: Xyzz, q: Xyzz) -> Xyzz {
    if (xyzz_is_inf(q)) {
        return p;
    }
    if (xyzz_is_inf(p)) {
        return q;
    }
    let u1 = fq_mul(p.x, q.zz);
    let s1 = fq_mul(p.y, q.zzz);
    let u2 = fq_mul(q.x, p.zz);
    let s2 = fq_mul(q.y, p.zzz);
    let pp_ = fq_sub(u2, u1);
    let r = fq_sub(s2, s1);
    if (fq_is_zero(pp_)) {
        if (fq_is_zero(r)) {
            return xyzz_dbl(p);
        }
        return xyzz_zero();
    }
    let pp = fq_sqr(pp_);
    let ppp = fq_mul(pp_, pp);
    let qq = fq_mul(u1, pp);
    let x3 = fq_sub(fq_sub(fq_sqr(r), ppp), fq_double(qq));
    let y3 = fq_sub(fq_mul(r, fq_sub(qq, x3)), fq_mul(s1, ppp));
    return Xyzz(x3, y3, fq_mul(fq_mul(p.zz, q.zz), pp), fq_mul(fq_mul(p.zzz, q.zzz), ppp));
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
