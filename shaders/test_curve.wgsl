// Requires: test_bindings, curve. One tiny kernel per curve operation, results in affine
// form (16 words a point; (0,0) is infinity) so the host compares with arkworks directly.
// Inputs are affine points; XYZZ operands are made from them with a nontrivial ZZ by a
// doubling-and-subtracting detour where the operation needs projective inputs.

fn test_curve_count() -> u32 {
    return arrayLength(&tout) / (2u * LIMBS);
}

fn ta_affine(i: u32) -> Affine {
    var x: Big;
    var y: Big;
    // @unroll k LIMBS
        x[k] = ta[${AFFINE_WORDS}u * i + k];
        y[k] = ta[${AFFINE_WORDS}u * i + LIMBS + k];
    // @end
    return Affine(fq_unpack(x), fq_unpack(y));
}

fn tb_affine(i: u32) -> Affine {
    var x: Big;
    var y: Big;
    // @unroll k LIMBS
        x[k] = tb[${AFFINE_WORDS}u * i + k];
        y[k] = tb[${AFFINE_WORDS}u * i + LIMBS + k];
    // @end
    return Affine(fq_unpack(x), fq_unpack(y));
}

fn tout_affine(i: u32, p: Xyzz) {
    let a = xyzz_to_affine(p);
    tout_big(${AFFINE_WORDS}u * i, fq_pack(a.x));
    tout_big(${AFFINE_WORDS}u * i + LIMBS, fq_pack(a.y));
}

/// a as an XYZZ point with ZZ != 1: (2a + (-a)) computed projectively.
fn projective_of(a: Affine) -> Xyzz {
    return xyzz_madd(xyzz_mdbl(a), affine_neg(a));
}

/// tout = a + b (XYZZ + affine).
@compute @workgroup_size(64)
fn test_curve_madd(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_curve_count()) { tout_affine(g.x, xyzz_madd(projective_of(ta_affine(g.x)), tb_affine(g.x))); }
}

/// tout = a + b (XYZZ + XYZZ).
@compute @workgroup_size(64)
fn test_curve_add(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_curve_count()) {
        tout_affine(g.x, xyzz_add(projective_of(ta_affine(g.x)), projective_of(tb_affine(g.x))));
    }
}

/// tout = 2a (XYZZ doubling).
@compute @workgroup_size(64)
fn test_curve_double(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_curve_count()) { tout_affine(g.x, xyzz_dbl(projective_of(ta_affine(g.x)))); }
}

/// tout = -a.
@compute @workgroup_size(64)
fn test_curve_neg(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_curve_count()) { tout_affine(g.x, xyzz_neg(projective_of(ta_affine(g.x)))); }
}

/// tout = k a, k = word 0 of tb's element.
@compute @workgroup_size(64)
fn test_curve_mul_small(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_curve_count()) {
        tout_affine(g.x, xyzz_mul_small(xyzz_from_affine(ta_affine(g.x)), tb[${AFFINE_WORDS}u * g.x]));
    }
}

/// tout[i] word 0 = whether a is on the curve.
@compute @workgroup_size(64)
fn test_curve_on_curve(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_curve_count()) {
        var r: Big;
        r[0] = select(0u, 1u, affine_on_curve(ta_affine(g.x)));
        tout_big(${AFFINE_WORDS}u * g.x, r);
        tout_big(${AFFINE_WORDS}u * g.x + LIMBS, Big());
    }
}
