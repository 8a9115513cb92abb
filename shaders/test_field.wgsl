// Requires: test_bindings, field over ${F}. One tiny kernel per field operation:
// thread i applies the operation to element i of ta (and tb) and writes element i of tout.

fn test_${F}_count() -> u32 {
    return arrayLength(&tout) / LIMBS;
}

/// tout = ta + tb.
@compute @workgroup_size(64)
fn test_${F}_add(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_pack(${F}_add(${F}_unpack(ta_big(g.x, LIMBS)), ${F}_unpack(tb_big(g.x, LIMBS))))); }
}

/// tout = ta - tb.
@compute @workgroup_size(64)
fn test_${F}_sub(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_pack(${F}_sub(${F}_unpack(ta_big(g.x, LIMBS)), ${F}_unpack(tb_big(g.x, LIMBS))))); }
}

/// tout = ta * tb.
@compute @workgroup_size(64)
fn test_${F}_mul(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_pack(${F}_mul(${F}_unpack(ta_big(g.x, LIMBS)), ${F}_unpack(tb_big(g.x, LIMBS))))); }
}

/// tout = ta^2.
@compute @workgroup_size(64)
fn test_${F}_sqr(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_pack(${F}_sqr(${F}_unpack(ta_big(g.x, LIMBS))))); }
}

/// tout = (ta + p)(tb + p) - tb ta^2: a b - c d with one reduction, the first two
/// operands at the top of the lazy range.
@compute @workgroup_size(64)
fn test_${F}_mul_sub(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) {
        let a = ${F}_unpack(ta_big(g.x, LIMBS));
        let b = ${F}_unpack(tb_big(g.x, LIMBS));
        tout_big(LIMBS * g.x, ${F}_pack(${F}_mul_sub(${F}_unreduced(a), ${F}_unreduced(b), b, ${F}_sqr(a))));
    }
}

/// tout = -ta.
@compute @workgroup_size(64)
fn test_${F}_neg(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_pack(${F}_neg(${F}_unpack(ta_big(g.x, LIMBS))))); }
}

/// tout = 2 ta.
@compute @workgroup_size(64)
fn test_${F}_double(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_pack(${F}_double(${F}_unpack(ta_big(g.x, LIMBS))))); }
}

/// tout = ta^-1.
@compute @workgroup_size(64)
fn test_${F}_inv(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_pack(${F}_inv(${F}_unpack(ta_big(g.x, LIMBS))))); }
}

/// tout = ta (canonical) in Montgomery form.
@compute @workgroup_size(64)
fn test_${F}_to_mont(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_pack(${F}_to_mont(${F}_unpack(ta_big(g.x, LIMBS))))); }
}

/// tout = ta (Montgomery) in canonical form.
@compute @workgroup_size(64)
fn test_${F}_from_mont(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_pack(${F}_from_mont(${F}_unpack(ta_big(g.x, LIMBS))))); }
}

/// tout[i][0] = (ta == tb), other words 0.
@compute @workgroup_size(64)
fn test_${F}_eq(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) {
        var r: Big;
        r[0] = select(0u, 1u, ${F}_eq(${F}_unpack(ta_big(g.x, LIMBS)), ${F}_unpack(tb_big(g.x, LIMBS))));
        tout_big(LIMBS * g.x, r);
    }
}

/// tout = (a + b)(a - b) - 2ab + (-a)(-b): every intermediate of a lazily reduced field
/// (values in [p, 2p)) feeds the next operation before one final canonical store.
@compute @workgroup_size(64)
fn test_${F}_chain(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) {
        let a = ${F}_unpack(ta_big(g.x, LIMBS));
        let b = ${F}_unpack(tb_big(g.x, LIMBS));
        let s = ${F}_mul(${F}_add(a, b), ${F}_sub(a, b));
        let t = ${F}_sub(s, ${F}_double(${F}_mul(a, b)));
        tout_big(LIMBS * g.x, ${F}_pack(${F}_add(t, ${F}_mul(${F}_neg(a), ${F}_neg(b)))));
    }
}
