// Requires: test_bindings, fq2. One tiny kernel per Fq2 operation: thread i applies it to
// element i of ta (and tb) and writes element i of tout; an element is c0 then c1, each
// LIMBS words of its Montgomery form.

fn test_fq2_count() -> u32 {
    return arrayLength(&tout) / (2u * LIMBS);
}

fn test_fq2_a(i: u32) -> Fq2 {
    return Fq2(fq_unpack(ta_big(2u * i, LIMBS)), fq_unpack(ta_big(2u * i + 1u, LIMBS)));
}

fn test_fq2_b(i: u32) -> Fq2 {
    return Fq2(fq_unpack(tb_big(2u * i, LIMBS)), fq_unpack(tb_big(2u * i + 1u, LIMBS)));
}

/// v + p in each coordinate where the Fq form keeps values lazily reduced (< 2p): the
/// widest inputs of a multiply.
fn test_fq2_unreduced(v: Fq2) -> Fq2 {
    return Fq2(fq_unreduced(v.c0), fq_unreduced(v.c1));
}

fn test_fq2_out(i: u32, v: Fq2) {
    tout_big(2u * LIMBS * i, fq_pack(v.c0));
    tout_big(2u * LIMBS * i + LIMBS, fq_pack(v.c1));
}

/// tout = ta + tb.
@compute @workgroup_size(64)
fn test_fq2_add(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_fq2_count()) { test_fq2_out(g.x, fq2_add(test_fq2_a(g.x), test_fq2_b(g.x))); }
}

/// tout = ta - tb.
@compute @workgroup_size(64)
fn test_fq2_sub(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_fq2_count()) { test_fq2_out(g.x, fq2_sub(test_fq2_a(g.x), test_fq2_b(g.x))); }
}

/// tout = ta * tb.
@compute @workgroup_size(64)
fn test_fq2_mul(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_fq2_count()) { test_fq2_out(g.x, fq2_mul(test_fq2_a(g.x), test_fq2_b(g.x))); }
}

/// tout = ta * tb, each input given as its value + p where the Fq form keeps values
/// lazily reduced (< 2p): the multiply's widest inputs.
@compute @workgroup_size(64)
fn test_fq2_mul_unreduced(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_fq2_count()) {
        test_fq2_out(g.x, fq2_mul(test_fq2_unreduced(test_fq2_a(g.x)), test_fq2_unreduced(test_fq2_b(g.x))));
    }
}

/// tout = ta tb - tb ta^2 by fq2_mul_sub, its first three inputs unreduced: the widest
/// a b - c d the point formulas take.
@compute @workgroup_size(64)
fn test_fq2_mul_sub(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_fq2_count()) {
        let a = test_fq2_a(g.x);
        let bu = test_fq2_unreduced(test_fq2_b(g.x));
        test_fq2_out(g.x, fq2_mul_sub(test_fq2_unreduced(a), bu, bu, fq2_sqr(a)));
    }
}

/// tout = ta^2.
@compute @workgroup_size(64)
fn test_fq2_sqr(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_fq2_count()) { test_fq2_out(g.x, fq2_sqr(test_fq2_a(g.x))); }
}

/// tout = -ta.
@compute @workgroup_size(64)
fn test_fq2_neg(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_fq2_count()) { test_fq2_out(g.x, fq2_neg(test_fq2_a(g.x))); }
}

/// tout = 2 ta.
@compute @workgroup_size(64)
fn test_fq2_double(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_fq2_count()) { test_fq2_out(g.x, fq2_double(test_fq2_a(g.x))); }
}

/// tout = (ta * tb)^2 - ta (a chain: lazy intermediates fed back in).
@compute @workgroup_size(64)
fn test_fq2_chain(@builtin(global_invocation_id) g: vec3<u32>) {
    if (g.x < test_fq2_count()) {
        let a = test_fq2_a(g.x);
        test_fq2_out(g.x, fq2_sub(fq2_sqr(fq2_mul(a, test_fq2_b(g.x))), a));
    }
}
