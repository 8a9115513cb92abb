// Requires: msm_bindings. Stage 4: bucket accumulation with mixed additions.
//
// The sorted entries of a window are cut into chunks of L = chunk_len entries, one
// thread each, whatever the buckets: a hot bucket is spread over many threads and costs
// what uniform scalars cost. A thread sums each run of equal buckets in its chunk. The
// run that starts the chunk goes to chunk partial k; a run starting mid-chunk starts its
// bucket, and goes to that bucket's partial. Stage 5 adds the pieces of each bucket.

/// Largest b in [0, B) with offsets[ob + b] <= pos (pos < the window's total).
fn bucket_of(ob: u32, pos: u32) -> u32 {
    var lo = 0u;
    var hi = params.num_buckets;
    while (hi - lo > 1u) {
        let mid = (lo + hi) / 2u;
        if (offsets[ob + mid] <= pos) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/// Stores a finished run: at its chunk's partial if it began the chunk, else at its
/// bucket's partial.
fn flush_run(acc: Xyzz, run_start: u32, chunk_start: u32, w: u32, k: u32, b: u32) {
    if (run_start == chunk_start) {
        store_point(chunk_base() + w * params.chunks_per_window + k, acc);
    } else {
        store_point(w * params.num_buckets + b, acc);
    }
}

/// Thread (w, k): sums chunk k of window w's sorted entries.
@compute @workgroup_size(64)
fn accumulate(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = linear_id(gid, nwg);
    let cpw = params.chunks_per_window;
    let w = t / cpw;
    let k = t % cpw;
    if (w >= params.num_windows) {
        return;
    }
    let nb = params.num_buckets;
    let ob = w * (nb + 1u);
    let total = offsets[ob + nb];
    let start = k * params.chunk_len;
    if (start >= total) {
        return;
    }
    let end = min(start + params.chunk_len, total);
    let row = w * params.n;
    var b = bucket_of(ob, start);
    var next = offsets[ob + b + 1u];
    var acc = xyzz_zero();
    var run_start = start;
    for (var pos = start; pos < end; pos++) {
        if (pos == next) {
            flush_run(acc, run_start, start, w, k, b);
            acc = xyzz_zero();
            run_start = pos;
            b += 1u;
            while (offsets[ob + b + 1u] <= pos) {
                b += 1u;
            }
            next = offsets[ob + b + 1u];
        }
        let e = sorted[row + pos];
        var p = load_base(e & ~SIGN_BIT);
        if ((e & SIGN_BIT) != 0u) {
            p = affine_neg(p);
        }
        acc = xyzz_madd(acc, p);
    }
    flush_run(acc, run_start, start, w, k, b);
}
