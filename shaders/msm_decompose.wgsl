// Requires: msm_bindings, field over fr, glv. Stage 1: scalars to signed c-bit digits.
//
// Each window row has n entries, which the sort orders by bucket and accumulation reads
// as base indices. params.entry_layout says what they are:
//   LAYOUT_POINTS  entry i is point i with scalar i (bases as uploaded);
//   LAYOUT_GLV     entries 2i, 2i + 1 are point i and its endomorphism image (bases
//                  expanded by expand_bases.wgsl) with the halves k1, k2 of scalar i,
//                  k = k1 + lambda k2: twice the entries, half the windows;
//   LAYOUT_PAIRS   the expanded bases with whole scalars: entry 2i has scalar i, entry
//                  2i + 1 no digit (a range of windows over expanded resident bases).

const LAYOUT_POINTS: u32 = 0u;
const LAYOUT_GLV: u32 = 1u;
const LAYOUT_PAIRS: u32 = 2u;

/// The signed digits of v (negated when `neg`) for the pass's windows (first_window + w
/// for w < W) into digits[w*n + e], each nonzero one counted in its bucket (and, with
/// SCATTER_RANKS, its rank there kept for the scatter). Window g is b = window_bits bits
/// wide for g < full_windows and b - 1 above (its digits in [-2^(b-1), 2^(b-1)]); a digit
/// above 2^(b-1) becomes digit - 2^b with a carry into the next window. Windows below
/// first_window are computed only for their carry.
fn put_digits(v: Big, neg: bool, e: u32) {
    let n = params.n;
    let c = params.window_bits;
    let flip = select(0u, SIGN_BIT, neg);
    var carry = 0u;
    let w0 = params.first_window;
    for (var g = 0u; g < w0 + params.num_windows; g++) {
        // Windows below g: full ones of c bits, the rest of c - 1.
        let full_below = min(g, params.full_windows);
        let b = c - select(0u, 1u, g >= params.full_windows);
        let full = 1u << b;
        let half = full >> 1u;
        let mask = full - 1u;
        let bit = full_below * c + (g - full_below) * (c - 1u);
        let limb = bit / 32u;
        let sh = bit % 32u;
        var x = big_limb(v, limb) >> sh;
        if (sh + b > 32u) {
            x |= big_limb(v, limb + 1u) << (32u - sh);
        }
        x &= mask;
        let d = x + carry;
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
        let mag = word & ~SIGN_BIT;
        if (mag != 0u) {
            word ^= flip;
            let counter = w * params.num_buckets + mag - 1u;
            if (params.scatter == SCATTER_RANKS) {
                // The count before this entry is its rank in the bucket: its slot there.
                digits[rank_index(w * n + e)] = atomicAdd(&counts[counter], 1u);
            } else {
                atomicAdd(&counts[counter], 1u);
            }
        }
        digits[w * n + e] = word;
    }
}

/// Thread i: scalar i out of Montgomery form, into the digits of its entries.
@compute @workgroup_size(64)
fn decompose(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = linear_id(gid, nwg);
    if (i >= params.points) {
        return;
    }
    let s = ${SCALAR};
    if (params.entry_layout == LAYOUT_GLV) {
        let h = glv_split(s);
        put_digits(h.k1, h.neg1, 2u * i);
        put_digits(h.k2, h.neg2, 2u * i + 1u);
    } else if (params.entry_layout == LAYOUT_PAIRS) {
        put_digits(s, false, 2u * i);
        for (var w = 0u; w < params.num_windows; w++) {
            digits[w * params.n + 2u * i + 1u] = 0u;
        }
    } else {
        put_digits(s, false, i);
    }
}
