// Requires: test_bindings, curve. Throughput kernels: thread i runs `iters` (word 0 of
// tb) dependent operations from its own inputs and writes the result, so nothing is
// optimised away. ta holds 16 words per thread.

/// 8 independent chains of 32-bit multiply-adds: 8 * iters u32 multiplies per thread,
/// enough chains that the multiplier's throughput, not its latency, bounds the kernel.
@compute @workgroup_size(64)
fn bench_u32_mul(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    if (16u * i >= arrayLength(&ta)) {
        return;
    }
    var x: array<u32, 8>;
    var k: array<u32, 8>;
    for (var j = 0u; j < 8u; j++) {
        x[j] = ta[16u * i + j];
        k[j] = ta[16u * i + 8u + j];
    }
    let m = k[0] | 1u;
    for (var n = 0u; n < tb[0]; n++) {
        x[0] = x[0] * m + k[0];
        x[1] = x[1] * m + k[1];
        x[2] = x[2] * m + k[2];
        x[3] = x[3] * m + k[3];
        x[4] = x[4] * m + k[4];
        x[5] = x[5] * m + k[5];
        x[6] = x[6] * m + k[6];
        x[7] = x[7] * m + k[7];
    }
    tout[i] = x[0] ^ x[1] ^ x[2] ^ x[3] ^ x[4] ^ x[5] ^ x[6] ^ x[7];
}

/// 8 independent chains of packed dot products of four bytes (`dot4U8Packed`, a DP4A
/// where the driver has one) plus an add: 8 * iters dot products, 32 * iters byte
/// products, per thread. Beside bench_u32_mul (the same shape) it says what a
/// byte-digit multiply would gain.
@compute @workgroup_size(64)
fn bench_dot4(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    if (16u * i >= arrayLength(&ta)) {
        return;
    }
    var x: array<u32, 8>;
    var k: array<u32, 8>;
    for (var j = 0u; j < 8u; j++) {
        x[j] = ta[16u * i + j];
        k[j] = ta[16u * i + 8u + j];
    }
    let m = k[0] | 0x01010101u;
    for (var n = 0u; n < tb[0]; n++) {
        x[0] = dot4U8Packed(x[0], m) + k[0];
        x[1] = dot4U8Packed(x[1], m) + k[1];
        x[2] = dot4U8Packed(x[2], m) + k[2];
        x[3] = dot4U8Packed(x[3], m) + k[3];
        x[4] = dot4U8Packed(x[4], m) + k[4];
        x[5] = dot4U8Packed(x[5], m) + k[5];
        x[6] = dot4U8Packed(x[6], m) + k[6];
        x[7] = dot4U8Packed(x[7], m) + k[7];
    }
    tout[i] = x[0] ^ x[1] ^ x[2] ^ x[3] ^ x[4] ^ x[5] ^ x[6] ^ x[7];
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
