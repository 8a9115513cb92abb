// Requires: msm_bindings. Stage 5: bucket reduction by parallel running sums.
//
// Window w's sum is S_w = sum over b of (b + 1) * bucket_b. Thread j of the window takes
// buckets [lo, hi) and walks them downwards keeping running = sum of the buckets seen and
// acc = sum of running after each step, so acc = sum (b - lo + 1) * bucket_b; adding
// lo * running gives its share of S_w. Each 64-thread workgroup then adds its threads'
// shares in a tree and writes one window-group sum; the host adds the G sums of each
// window and combines windows as sum 2^(c*w) * S_w.

const REDUCE_WG: u32 = 64u;
var<workgroup> red_tmp: array<Xyzz, REDUCE_WG>;

/// Bucket b of window w: its bucket partial (if the bucket starts mid-chunk) plus the
/// chunk partials of every chunk that starts inside it.
fn bucket_sum(w: u32, b: u32) -> Xyzz {
    let nb = params.num_buckets;
    let ob = w * (nb + 1u);
    let o = offsets[ob + b];
    let cnt = offsets[ob + b + 1u] - o;
    var s = xyzz_zero();
    if (cnt == 0u) {
        return s;
    }
    let l = params.chunk_len;
    if (o % l != 0u) {
        s = load_point(w * nb + b);
    }
    let first = (o + l - 1u) / l;
    let last = (o + cnt - 1u) / l;
    let cb = chunk_base() + w * params.chunks_per_window;
    // After the fold (msm_fold.wgsl), partial k holds chunks [k, k + lowbit(k)) of its
    // bucket, so O(log C) partials cover the bucket however hot it is.
    var k = first;
    while (k <= last) {
        s = xyzz_add(s, load_point(cb + k));
        if (k == 0u) {
            break;
        }
        k += k & (~k + 1u);
    }
    return s;
}

/// Workgroup (w, g), thread j: segment g*64 + j of window w.
@compute @workgroup_size(64)
fn reduce(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let gpw = params.groups_per_window;
    let w = wid.x / gpw;
    let g = wid.x % gpw;
    let seg = g * REDUCE_WG + lid;
    let nb = params.num_buckets;
    let per = (nb + params.segs_per_window - 1u) / params.segs_per_window;
    let lo = min(seg * per, nb);
    let hi = min(lo + per, nb);
    var running = xyzz_zero();
    var acc = xyzz_zero();
    for (var b = hi; b > lo; b--) {
        running = xyzz_add(running, bucket_sum(w, b - 1u));
        acc = xyzz_add(acc, running);
    }
    acc = xyzz_add(acc, xyzz_mul_small(running, lo));
    red_tmp[lid] = acc;
    workgroupBarrier();
    for (var s = REDUCE_WG / 2u; s > 0u; s /= 2u) {
        if (lid < s) {
            red_tmp[lid] = xyzz_add(red_tmp[lid], red_tmp[lid + s]);
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        store_point(group_base() + w * gpw + g, red_tmp[0]);
    }
}
