// Requires: test_bindings, fq2, the curve over Fq2 (curve.wgsl with its element renamed,
// see src/shader/element.rs). One tiny kernel per G2 curve operation, results in affine
// form: a point is x.c0, x.c1, y.c0, y.c1 (LIMBS words each, Montgomery), all zero for
// infinity. XYZZ operands are made as in test_curve.wgsl.

fn test_g2_count() -> u32 {
    return arrayLength(&tout) / (4u * LIMBS);
}

fn test_g2_fq2(a: Big, b: Big) -> Fq2 {
    return Fq2(fq_unpack(a), fq_unpack(b));
}

fn ta_affine2(i: u32) -> Affine {
    let o = 4u * i;
    let x = test_g2_fq2(ta_big(o, LIMBS), ta_big(o + 1u, LIMBS));
    return Affine(x, test_g2_fq2(ta_big(o + 2u, LIMBS), ta_big(o + 3u, LIMBS)));
}

fn tb_affine2(i: u32) -> Affine {
    let o = 4u * i;
    let x = test_g2_fq2(tb_big(o, LIMBS), tb_big(o + 1u, LIMBS));
    return Affine(x, test_g2_fq2(tb_big(o + 2u, LIMBS), tb_big(o + 3u, LIMBS)));
}

fn tout_affine2(i: u32, p: Xyzz) {
    let a = xyzz_to_affine(p);
    let o = 4u * LIMBS * i;
    tout_big(o, fq_pack(a.x.c0));
    tout_big(o + LIMBS, fq_pack(a.x.c1));
    tout_big(o + 2u * LIMBS, fq_pack(a.y.c0));
    tout_big(o + 3u * LIMBS, fq_pack(a.y.c1));
}

/// a as an XYZZ point with ZZ != 1: (2a + (-a)) computed projectively.
fn projective_of2(a: Affine) -> Xyzz {
    return xyzz_madd(xyzz_mdbl(a), affine_neg(a));
}

/// tout = a + b (XYZZ + affine).
@compute @workgroup_size(64)
fn test_g2_madd(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_g2_count()) { tout_affine2(g.x, xyzz_madd(projective_of2(ta_affine2(g.x)), tb_affine2(g.x))); }
}

/// tout = a + b (XYZZ + XYZZ).
@compute @workgroup_size(64)
fn test_g2_add(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_g2_count()) {
        tout_affine2(g.x, xyzz_add(projective_of2(ta_affine2(g.x)), projective_of2(tb_affine2(g.x))));
    }
}

/// tout = 2a (XYZZ doubling).
@compute @workgroup_size(64)
fn test_g2_double(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_g2_count()) { tout_affine2(g.x, xyzz_dbl(projective_of2(ta_affine2(g.x)))); }
}

/// tout = -a.
@compute @workgroup_size(64)
fn test_g2_neg(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_g2_count()) { tout_affine2(g.x, xyzz_neg(projective_of2(ta_affine2(g.x)))); }
}

/// tout = k a, k = word 0 of tb's element.
@compute @workgroup_size(64)
fn test_g2_mul_small(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_g2_count()) {
        tout_affine2(g.x, xyzz_mul_small(xyzz_from_affine(ta_affine2(g.x)), tb[4u * LIMBS * g.x]));
    }
}

/// tout[i] word 0 = whether a is on the curve (y^2 = x^3 + b over Fq2).
@compute @workgroup_size(64)
fn test_g2_on_curve(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_g2_count()) {
        var r: Big;
        r[0] = select(0u, 1u, affine_on_curve(ta_affine2(g.x)));
        let o = 4u * LIMBS * g.x;
        tout_big(o, r);
        tout_big(o + LIMBS, Big());
        tout_big(o + 2u * LIMBS, Big());
        tout_big(o + 3u * LIMBS, Big());
    }
}
