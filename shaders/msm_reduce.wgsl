// Requires: msm_bindings. Stage 5: bucket reduction, in four uniform kernels.
//
// Window w's sum is S_w = sum over b of (b + 1) * B_b. With T segments of `per` buckets
// (lo_j = j * per) and the running-sum identity inside each segment,
//   S_w = sum_j acc_j + per * sum_j j * run_j,
// acc_j = sum_{b in seg j} (b - lo_j + 1) B_b and run_j = sum_{b in seg j} B_b. The
// weighted sum over segments is done the same way in groups of 64 segments, then once
// per window. Only additions and doublings by powers of two: no scalar multiplication,
// and every thread of a kernel does the same amount of work.
//
// Scratch layout after the accumulation's partials (see msm_bindings):
//   [seg_acc W*T][seg_run W*T][grp_a W*G][grp_v W*G][grp_r W*G][window W]

const GROUP_SEGS: u32 = 64u;

fn seg_base() -> u32 {
    return group_base();
}

fn grp_base() -> u32 {
    return seg_base() + 2u * params.num_windows * params.segs_per_window;
}

fn window_base() -> u32 {
    return grp_base() + 3u * params.num_windows * params.groups_per_window;
}

/// Thread (w, b): bucket b of window w, its bucket partial (if the bucket starts
/// mid-chunk) plus the chunk partials of every chunk starting inside it, stored in place
/// of the bucket partial.
@compute @workgroup_size(64)
fn bucket_sums(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = linear_id(gid, nwg);
    let nb = params.num_buckets;
    if (t >= params.num_windows * nb) {
        return;
    }
    let w = t / nb;
    let b = t % nb;
    let ob = w * (nb + 1u);
    let o = offsets[ob + b];
    let cnt = offsets[ob + b + 1u] - o;
    var s = xyzz_zero();
    if (cnt != 0u) {
        let l = params.chunk_len;
        if (o % l != 0u) {
            s = load_point(t);
        }
        let first = (o + l - 1u) / l;
        let last = (o + cnt - 1u) / l;
        let cb = chunk_base() + w * params.chunks_per_window;
        for (var k = first; k <= last; k++) {
            s = xyzz_add(s, load_point(cb + k));
        }
    }
    store_point(t, s);
}

/// Thread (w, j): running sums over the buckets of segment j, downwards.
@compute @workgroup_size(64)
fn segment_sums(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = linear_id(gid, nwg);
    let nt = params.segs_per_window;
    if (t >= params.num_windows * nt) {
        return;
    }
    let w = t / nt;
    let j = t % nt;
    let nb = params.num_buckets;
    let per = max(nb / nt, 1u);
    let lo = min(j * per, nb);
    let hi = min(lo + per, nb);
    var run = xyzz_zero();
    var acc = xyzz_zero();
    for (var b = hi; b > lo; b--) {
        run = xyzz_add(run, load_point(w * nb + b - 1u));
        acc = xyzz_add(acc, run);
    }
    let sb = seg_base();
    store_point(sb + t, acc);
    store_point(sb + params.num_windows * nt + t, run);
}

/// Thread (w, g): over segments j of group g (64 of them), a = sum acc_j,
/// r = sum run_j and v = sum (j - 64 g + 1) run_j.
@compute @workgroup_size(64)
fn group_sums(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = linear_id(gid, nwg);
    let ng = params.groups_per_window;
    if (t >= params.num_windows * ng) {
        return;
    }
    let w = t / ng;
    let g = t % ng;
    let nt = params.segs_per_window;
    let sb = seg_base();
    var a = xyzz_zero();
    var r = xyzz_zero();
    var v = xyzz_zero();
    for (var k = GROUP_SEGS; k > 0u; k--) {
        let j = w * nt + g * GROUP_SEGS + k - 1u;
        a = xyzz_add(a, load_point(sb + j));
        r = xyzz_add(r, load_point(sb + params.num_windows * nt + j));
        v = xyzz_add(v, r);
    }
    let gb = grp_base();
    let wg = params.num_windows * ng;
    store_point(gb + t, a);
    store_point(gb + wg + t, v);
    store_point(gb + 2u * wg + t, r);
}

/// 2^k p.
fn xyzz_dbl_n(p: Xyzz, k: u32) -> Xyzz {
    var q = p;
    for (var i = 0u; i < k; i++) {
        q = xyzz_dbl(q);
    }
    return q;
}

/// Thread w: S_w = sum_g a_g + per * (sum_g v_g + 64 u - 65 R), where
/// u = sum_g (g + 1) r_g and R = sum_g r_g (so that sum_j j run_j comes out).
@compute @workgroup_size(64)
fn window_sums(@builtin(global_invocation_id) gid: vec3<u32>) {
    let w = gid.x;
    if (w >= params.num_windows) {
        return;
    }
    let ng = params.groups_per_window;
    let wg = params.num_windows * ng;
    let gb = grp_base();
    var a = xyzz_zero();
    var vs = xyzz_zero();
    var rt = xyzz_zero();
    var u = xyzz_zero();
    for (var k = ng; k > 0u; k--) {
        let t = w * ng + k - 1u;
        a = xyzz_add(a, load_point(gb + t));
        vs = xyzz_add(vs, load_point(gb + wg + t));
        rt = xyzz_add(rt, load_point(gb + 2u * wg + t));
        u = xyzz_add(u, rt);
    }
    // x = vs + 64 u - 65 rt = vs + 64 (u - rt) - rt
    var x = xyzz_dbl_n(xyzz_add(u, xyzz_neg(rt)), 6u);
    x = xyzz_add(xyzz_add(x, vs), xyzz_neg(rt));
    let per = max(params.num_buckets / params.segs_per_window, 1u);
    x = xyzz_dbl_n(x, firstTrailingBit(per));
    store_point(window_base() + w, xyzz_add(a, x));
}
