// Requires: msm_bindings, field over fr. Stage 1: scalars to signed c-bit digits.

/// Thread i: scalar i out of Montgomery form, into signed digits in [-2^(c-1), 2^(c-1)]
/// (a digit above 2^(c-1) becomes digit - 2^c with a carry into the next window). The
/// digits of the pass's windows (first_window + w for w < W) go to digits[w*n + i], each
/// nonzero one counted in its bucket; windows below first_window are computed only for
/// their carry.
@compute @workgroup_size(64)
fn decompose(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = linear_id(gid, nwg);
    let n = params.n;
    if (i >= n) {
        return;
    }
    let s = fr_from_mont(big_of(scalars[BIG_VEC4S * i], scalars[BIG_VEC4S * i + 1u]));
    let c = params.window_bits;
    let full = 1u << c;
    let half = full >> 1u;
    let mask = full - 1u;
    var carry = 0u;
    let w0 = params.first_window;
    for (var g = 0u; g < w0 + params.num_windows; g++) {
        let bit = g * c;
        let limb = bit / 32u;
        let sh = bit % 32u;
        var v = big_limb(s, limb) >> sh;
        if (sh + c > 32u) {
            v |= big_limb(s, limb + 1u) << (32u - sh);
        }
        v &= mask;
        let d = v + carry;
        var word = d;
        carry = 0u;
        if (d > half) {
            word = (full - d) | SIGN_BIT;
            carry = 1u;
        }
        if (g < w0) {
            continue;
        }
        let w = g - w0;
        digits[w * n + i] = word;
        let mag = word & ~SIGN_BIT;
        if (mag != 0u) {
            atomicAdd(&counts[w * params.num_buckets + mag - 1u], 1u);
        }
    }
}
