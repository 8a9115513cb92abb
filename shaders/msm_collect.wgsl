// Requires: msm_bindings, msm_points (scratch and totals). Stage 6: adds this pass's
// pieces of every bucket into the bucket totals, which persist over the passes of one
// MSM, so that only the MSM's last pass runs the bucket reduction.
//
// A bucket's pieces are its bucket partial (when it starts mid-chunk) and the chunk
// partials of the chunks starting inside it; after the fold (msm_fold.wgsl) partial k
// holds chunks [k, k + lowbit(k)), so O(log C) partials cover a bucket however hot it is.
// Like every kernel here, this one has a single call site of xyzz_add (see
// msm_reduce.wgsl for why).

/// Thread (w, b): total[w, b] += this pass's pieces of bucket b of window w.
@compute @workgroup_size(64)
fn collect(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = linear_id(gid, nwg);
    let nb = params.num_buckets;
    let w = t / nb;
    let b = t % nb;
    if (w >= params.num_windows) {
        return;
    }
    let ob = w * (nb + 1u);
    let o = offsets[ob + b];
    let cnt = offsets[ob + b + 1u] - o;
    if (cnt == 0u) {
        return;
    }
    let l = params.chunk_len;
    let cb = chunk_base() + w * params.chunks_per_window;
    var partial = o % l != 0u;
    var k = (o + l - 1u) / l;
    let last = (o + cnt - 1u) / l;
    var acc = load_total(w * nb + b);
    loop {
        var y: Xyzz;
        if (partial) {
            y = load_point(w * nb + b);
            partial = false;
        } else if (k <= last) {
            y = load_point(cb + k);
            // Partial 0 already spans its whole bucket; otherwise the next one starts
            // where this one's range ends.
            k = select(k + (k & (~k + 1u)), last + 1u, k == 0u);
        } else {
            break;
        }
        acc = xyzz_add(acc, y);
    }
    store_total(w * nb + b, acc);
}
