// Requires: check_bases, glv_image_x (src/shader/glv.rs). The on-curve check of
// check_bases.wgsl, which also writes the layout a GLV pass reads (msm_decompose.wgsl):
// base i and its image under the endomorphism, phi(x, y) = (beta x, y) = lambda (x, y),
// as points 2i and 2i + 1 (the image of infinity, (0, 0), is (0, 0)).

@group(0) @binding(2) var<storage, read_write> expanded: array<vec4<u32>>;

/// Thread i: checks base i and writes it and its image.
@compute @workgroup_size(64)
fn expand_bases(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = check_base_index(gid, nwg);
    if (i == 0xffffffffu) {
        return;
    }
    let x = check_base(i);
    let bx = glv_image_x(x);
    let o = BASE_VEC4S * i;
    let e = 2u * o;
    for (var q = 0u; q < BIG_VEC4S; q++) {
        expanded[e + q] = check_points[o + q];
        expanded[e + BIG_VEC4S + q] = check_points[o + BIG_VEC4S + q];
        expanded[e + BASE_VEC4S + q] = vec4_of(bx, q);
        expanded[e + BASE_VEC4S + BIG_VEC4S + q] = check_points[o + BIG_VEC4S + q];
    }
}
