// Requires: test_bindings, field over ${F}. One tiny kernel per field operation:
// thread i applies the operation to element i of ta (and tb) and writes element i of tout.

fn test_${F}_count() -> u32 {
    return arrayLength(&tout) / LIMBS;
}

/// tout = ta + tb.
@compute @workgroup_size(64)
fn test_${F}_add(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_add(ta_big(g.x, LIMBS), tb_big(g.x, LIMBS))); }
}

/// tout = ta - tb.
@compute @workgroup_size(64)
fn test_${F}_sub(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_sub(ta_big(g.x, LIMBS), tb_big(g.x, LIMBS))); }
}

/// tout = ta * tb.
@compute @workgroup_size(64)
fn test_${F}_mul(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_mul(ta_big(g.x, LIMBS), tb_big(g.x, LIMBS))); }
}

/// tout = ta^2.
@compute @workgroup_size(64)
fn test_${F}_sqr(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_sqr(ta_big(g.x, LIMBS))); }
}

/// tout = -ta.
@compute @workgroup_size(64)
fn test_${F}_neg(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_neg(ta_big(g.x, LIMBS))); }
}

/// tout = 2 ta.
@compute @workgroup_size(64)
fn test_${F}_double(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_double(ta_big(g.x, LIMBS))); }
}

/// tout = ta^-1.
@compute @workgroup_size(64)
fn test_${F}_inv(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_inv(ta_big(g.x, LIMBS))); }
}

/// tout = ta (canonical) in Montgomery form.
@compute @workgroup_size(64)
fn test_${F}_to_mont(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_to_mont(ta_big(g.x, LIMBS))); }
}

/// tout = ta (Montgomery) in canonical form.
@compute @workgroup_size(64)
fn test_${F}_from_mont(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) { tout_big(LIMBS * g.x, ${F}_from_mont(ta_big(g.x, LIMBS))); }
}

/// tout[i][0] = (ta == tb), other words 0.
@compute @workgroup_size(64)
fn test_${F}_eq(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_${F}_count()) {
        var r: Big;
        r[0] = select(0u, 1u, ${F}_eq(ta_big(g.x, LIMBS), tb_big(g.x, LIMBS)));
        tout_big(LIMBS * g.x, r);
    }
}
