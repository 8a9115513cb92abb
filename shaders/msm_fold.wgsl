// Requires: msm_bindings, msm_accumulate (bucket_of). Stage 4b: folding the chunk
// partials of each bucket in a tree, so a hot bucket (all scalars equal, or the top
// window, whose few bits put every point in a handful of buckets) costs O(log n) serial
// additions in the reduction instead of O(n / L).
//
// Step s (s = 0, 1, ...): partial k = i * 2^(s+1) absorbs partial k + 2^s when both
// chunks start in the same bucket. Afterwards partial k holds chunks
// [k, min(k + lowbit(k), end of its bucket)).

/// Which fold step a dispatch runs; bound with a dynamic offset per step.
struct FoldStep {
    shift: u32,
}

@group(1) @binding(0) var<uniform> fold_step: FoldStep;

/// Thread (w, i): one pair of step `fold_step.shift` in window w.
@compute @workgroup_size(64)
fn fold(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = linear_id(gid, nwg);
    let s = fold_step.shift;
    let cpw = params.chunks_per_window;
    let pairs = (cpw + (2u << s) - 1u) >> (s + 1u);
    let w = t / pairs;
    if (w >= params.num_windows) {
        return;
    }
    let k = (t % pairs) << (s + 1u);
    let kk = k + (1u << s);
    let l = params.chunk_len;
    let nb = params.num_buckets;
    let ob = w * (nb + 1u);
    let total = offsets[ob + nb];
    if (kk * l >= total) {
        return;
    }
    // Same bucket when the bucket holding chunk k's start runs past chunk kk's start.
    let b = bucket_of(ob, k * l);
    if (offsets[ob + b + 1u] <= kk * l) {
        return;
    }
    let cb = chunk_base() + w * cpw;
    store_point(cb + k, xyzz_add(load_point(cb + k), load_point(cb + kk)));
}
