// Requires: test_bindings, curve. Throughput kernels: thread i runs `iters` (word 0 of
// tb) dependent operations from its own inputs and writes the result, so nothing is
// optimised away. ta holds 16 words per thread.

/// 4 independent chains of 32-bit multiply-adds: 4 * iters u32 multiplies per thread.
@compute @workgroup_size(64)
fn bench_u32_mul(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    if (16u * i >= arrayLength(&ta)) {
        return;
    }
    var a = ta[16u * i];
    var b = ta[16u * i + 1u];
    var c = ta[16u * i + 2u];
    var d = ta[16u * i + 3u];
    let m = ta[16u * i + 4u] | 1u;
    for (var k = 0u; k < tb[0]; k++) {
        a = a * m + b;
        b = b * m + c;
        c = c * m + d;
        d = d * m + a;
    }
    tout[i] = a ^ b ^ c ^ d;
}

/// 4 independent chains of packed dot products of four bytes (`dot4U8Packed`, a DP4A
/// where the driver has one): 4 * iters dot products, 16 * iters byte products, per
/// thread. Beside bench_u32_mul it says what a byte-digit multiply would gain.
@compute @workgroup_size(64)
fn bench_dot4(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    if (16u * i >= arrayLength(&ta)) {
        return;
    }
    var a = ta[16u * i];
    var b = ta[16u * i + 1u];
    var c = ta[16u * i + 2u];
    var d = ta[16u * i + 3u];
    let m = ta[16u * i + 4u] | 0x01010101u;
    for (var k = 0u; k < tb[0]; k++) {
        a = dot4U8Packed(a, m) + b;
        b = dot4U8Packed(b, m) + c;
        c = dot4U8Packed(c, m) + d;
        d = dot4U8Packed(d, m) + a;
    }
    tout[i] = a ^ b ^ c ^ d;
}

/// iters dependent Montgomery multiplications in Fq per thread.
@compute @workgroup_size(64)
fn bench_fq_mul(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    if (16u * i >= arrayLength(&ta)) {
        return;
    }
    var x = fq_unpack(ta_big(2u * i, LIMBS));
    let y = fq_unpack(ta_big(2u * i + 1u, LIMBS));
    for (var k = 0u; k < tb[0]; k++) {
        x = fq_mul(x, y);
    }
    tout[i] = x[0] ^ x[7];
}

/// iters dependent mixed additions (XYZZ + affine) per thread.
@compute @workgroup_size(64)
fn bench_madd(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    if (16u * i >= arrayLength(&ta)) {
        return;
    }
    let a = Affine(fq_unpack(ta_big(2u * i, LIMBS)), fq_unpack(ta_big(2u * i + 1u, LIMBS)));
    var p = xyzz_mdbl(a);
    for (var k = 0u; k < tb[0]; k++) {
        p = xyzz_madd(p, a);
    }
    tout[i] = p.x[0] ^ p.zz[7];
}
