// Requires: curve. Checks that every base is on the curve (or is (0,0), infinity).

@group(0) @binding(0) var<storage, read> check_points: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> check_flag: array<atomic<u32>>;

/// vec4s of one affine base (x, then y).
const BASE_VEC4S: u32 = 2u * BIG_VEC4S;

/// The base of thread (gid, nwg) of a 64-thread grid, or none (u32::MAX) past the last.
fn check_base_index(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    let i = gid.x + gid.y * nwg.x * 64u;
    return select(0xffffffffu, i, i < arrayLength(&check_points) / BASE_VEC4S);
}

/// Lowers the flag (initially 0xffffffff) to i if base i is off the curve; returns the
/// base's x (Montgomery form, as stored).
fn check_base(i: u32) -> Big {
    let o = BASE_VEC4S * i;
    let x = ${BIG_OF:check_points:o:0};
    let y = ${BIG_OF:check_points:o:1};
    if (!affine_on_curve(Affine(fq_unpack(x), fq_unpack(y)))) {
        atomicMin(&check_flag[0], i);
    }
    return x;
}

/// Thread i: checks base i.
@compute @workgroup_size(64)
fn check_bases(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = check_base_index(gid, nwg);
    if (i != 0xffffffffu) {
        _ = check_base(i);
    }
}
