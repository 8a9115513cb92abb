// Requires: Fq, curve (Affine, Xyzz and their helpers). The point formulas of curve.wgsl
// written out: every field operation at its own call site, so a GPU compiler schedules
// the whole formula in registers. curve_tape.wgsl holds the same four functions as
// programs of a register machine, for compilers that inline every call slowly.

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
    let y3 = fq_mul_sub(m, fq_sub(s, x3), w, a.y);
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
    let y3 = fq_mul_sub(m, fq_sub(s, x3), w, p.y);
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
    let y3 = fq_mul_sub(r, fq_sub(q, x3), p.y, ppp);
    return Xyzz(x3, y3, fq_mul(p.zz, pp), fq_mul(p.zzz, ppp));
}

/// A run's accumulator (`run_sum_set`, `run_sum`, `run_sum_madd`), as curve_tape.wgsl
/// keeps it in the register machine's registers.
var<private> run_sum_value: Xyzz;

/// Starts the running sum at p.
fn run_sum_set(p: Xyzz) {
    run_sum_value = p;
}

/// The running sum.
fn run_sum() -> Xyzz {
    return run_sum_value;
}

/// Adds affine a to the running sum: the mixed addition. A lane whose sum is zero takes
/// its early return while its warp's other lanes add, which costs these written-out
/// formulas nothing measurable.
fn run_sum_madd(a: Affine) {
    run_sum_value = xyzz_madd(run_sum_value, a);
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
    let y3 = fq_mul_sub(r, fq_sub(qq, x3), s1, ppp);
    return Xyzz(x3, y3, fq_mul(fq_mul(p.zz, q.zz), pp), fq_mul(fq_mul(p.zzz, q.zzz), ppp));
}
