/// Two products in one loop body: a * b and c * d, one multiply site.
struct FqPair {
    a: Fq,
    b: Fq,
}

fn fq_mul_pair(a: Fq, b: Fq, c: Fq, d: Fq) -> FqPair {
    var o: FqPair;
    for (var i = 0u; i < 2u; i++) {
        var x: Fq;
        var y: Fq;
        if (i == 0u) {
            x = a;
            y = b;
        } else {
            x = c;
            y = d;
        }
        let r = fq_mul(x, y);
        if (i == 0u) {
            o.a = r;
        } else {
            o.b = r;
        }
    }
    return o;
}

fn fq_sqr_pair(a: Fq, c: Fq) -> FqPair {
    var o: FqPair;
    for (var i = 0u; i < 2u; i++) {
        var x: Fq;
        if (i == 0u) {
            x = a;
        } else {
            x = c;
        }
        let r = fq_sqr(x);
        if (i == 0u) {
            o.a = r;
        } else {
            o.b = r;
        }
    }
    return o;
}

/// p + a for affine a (madd-2008-s), its products in pairs.
fn xyzz_madd(p: Xyzz, a: Affine) -> Xyzz {
    if (affine_is_inf(a)) {
        return p;
    }
    if (xyzz_is_inf(p)) {
        return xyzz_from_affine(a);
    }
    let us = fq_mul_pair(a.x, p.zz, a.y, p.zzz);
    let pp_ = fq_sub(us.a, p.x);
    let r = fq_sub(us.b, p.y);
    if (fq_is_zero(pp_)) {
        if (fq_is_zero(r)) {
            return xyzz_mdbl(a);
        }
        return xyzz_zero();
    }
    let sq = fq_sqr_pair(pp_, r);
    let pp = sq.a;
    let pq = fq_mul_pair(pp_, pp, p.x, pp);
    let ppp = pq.a;
    let q = pq.b;
    let x3 = fq_sub(fq_sub(sq.b, ppp), fq_double(q));
    let y3 = fq_mul_sub(r, fq_sub(q, x3), p.y, ppp);
    let zs = fq_mul_pair(p.zz, pp, p.zzz, ppp);
    return Xyzz(x3, y3, zs.a, zs.b);
}
