// Requires: curve, GLV_BETA (src/shader/glv.rs). The on-curve check of
// check_bases.wgsl, which also writes the layout a GLV pass reads (msm_decompose.wgsl):
// base i and its image under the endomorphism, phi(x, y) = (beta x, y) = lambda (x, y), as points 2i and 2i + 1
// (the image of infinity, (0, 0), is (0, 0)).

@group(0) @binding(0) var<storage, read> expand_points: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> expand_flag: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> expanded: array<vec4<u32>>;

/// Thread i: checks base i (lowering the flag, initially 0xffffffff, to i if it is off
/// the curve) and writes it and its image.
@compute @workgroup_size(64)
fn expand_bases(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = gid.x + gid.y * nwg.x * 64u;
    let v = 2u * BIG_VEC4S;
    if (i >= arrayLength(&expand_points) / v) {
        return;
    }
    let o = v * i;
    let x = big_of(expand_points[o], expand_points[o + 1u]);
    let y = big_of(expand_points[o + 2u], expand_points[o + 3u]);
    if (!affine_on_curve(Affine(fq_unpack(x), fq_unpack(y)))) {
        atomicMin(&expand_flag[0], i);
    }
    let bx = fq_pack(fq_mul(fq_unpack(x), fq_unpack(GLV_BETA)));
    let e = 2u * o;
    for (var q = 0u; q < BIG_VEC4S; q++) {
        expanded[e + q] = expand_points[o + q];
        expanded[e + BIG_VEC4S + q] = expand_points[o + BIG_VEC4S + q];
        expanded[e + v + q] = vec4_of(bx, q);
        expanded[e + v + BIG_VEC4S + q] = expand_points[o + BIG_VEC4S + q];
    }
}
