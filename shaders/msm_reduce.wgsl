// Requires: msm_bindings, msm_points (scratch and totals). Stage 7, on an MSM's last
// pass only: bucket reduction by parallel running sums over the bucket totals.
//
// Window w's sum is S_w = sum over b of (b + 1) * total_b (total_b: bucket b summed over
// every pass, the collect step of msm_fold.wgsl). The buckets of a window are cut into
// segments of `per` = num_buckets / segs_per_window buckets (a power of two). Thread j
// of the window takes segment j = [lo, lo + per), lo = j * per, and walks it downwards
// keeping running R_j = the sum of its buckets and acc_j = the sum of running after each
// step, so acc_j = sum (b - lo + 1) * total_b; then
//   S_w = sum_j acc_j + sum_j lo_j * R_j = sum_j acc_j + per * sum_j j * R_j.
// `reduce_groups` gives each K = REDUCE_WG segments j = K g + i a workgroup that computes
//   P_g = sum_i acc_j + per * sum_i i * R_j,   S_g = sum_i R_j
// (`weighted_sum`: a suffix scan and a tree in shared memory), and `reduce_windows`
// the same sums over the G <= K groups of a window, with the weight left to the host:
//   S_w = sum_g P_g + K * per * sum_g g * S_g = Z_w + (K * per - 1) * Y_w.
// The host reads Z_w and Y_w of every window and combines them as sum 2^(c*w) * S_w.
// Multiplying each R_j by lo_j inside the thread instead (double-and-add) cost 40% of
// the stage's additions.
//
// Each kernel has a single call site of xyzz_add: a driver inlines every call site of
// the (large) point addition, and compiling one copy instead of five cut the cold
// pipeline build of this stage on an H200 from ~35 s to about a second. A thread is
// therefore a small machine doing one addition per loop iteration.

// Threads of a reduction workgroup and their log2 (the rounds of the suffix scan and of
// the tree), generated from `stages::reduce_wg`: 64, or fewer where 64 points do not fit
// the device's workgroup memory.
const REDUCE_WG: u32 = ${REDUCE_WG}u;
const REDUCE_WG_LOG2: u32 = ${REDUCE_WG_LOG2}u;
var<workgroup> red_tmp: array<Xyzz, REDUCE_WG>;

/// Index of the first thread share in scratch (after the window-group sums): segment
/// (w, j) has acc_j at 2 (w * spw + j) and R_j right after it.
fn share_base() -> u32 {
    return group_base() + 2u * params.num_windows * params.groups_per_window;
}

/// Thread (w, j): acc_j and R_j of segment j of window w.
@compute @workgroup_size(64)
fn reduce(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = linear_id(gid, nwg);
    let spw = params.segs_per_window;
    let w = t / spw;
    let seg = t % spw;
    if (w >= params.num_windows) {
        return;
    }
    let nb = params.num_buckets;
    let per = (nb + spw - 1u) / spw;
    let lo = min(seg * per, nb);
    let hi = min(lo + per, nb);
    var s = xyzz_zero();
    var running = xyzz_zero();
    var acc = xyzz_zero();
    var b = hi;
    // What the next addition is: 0 = none yet (take the next bucket down), 1 = running
    // += total_b, 2 = acc += running (an empty bucket goes straight to 2).
    var phase = 0u;
    loop {
        if (phase == 0u) {
            if (b == lo) {
                break;
            }
            b -= 1u;
            s = load_total(w * nb + b);
            phase = select(1u, 2u, xyzz_is_inf(s));
        }
        var x = acc;
        var y = running;
        if (phase == 1u) {
            x = running;
            y = s;
        }
        let r = xyzz_add(x, y);
        if (phase == 1u) {
            running = r;
            phase = 2u;
        } else {
            acc = r;
            phase = 0u;
        }
    }
    store_point(share_base() + 2u * t, acc);
    store_point(share_base() + 2u * t + 1u, running);
}

/// The two sums a reduction workgroup computes over its lanes i (every lane calls it,
/// in uniform control flow; `doublings` uniform):
///   p = sum_i acc_i + 2^doublings * sum_i i * r_i,   s = sum_i r_i,
/// valid in lane 0. Rounds, one addition each, all lanes in step:
///   scan   (6): red_tmp[i] += red_tmp[i + d], d = 1, 2, ..., 32: suffix sums of r
///                (sum_i i * r_i = the sum of the suffix sums from lane 1 on)
///   double (`doublings`): m = 2^doublings * suffix_i
///   acc    (1): red_tmp[i] = acc_i + m (lane 0: acc_0 alone; its suffix is s)
///   tree   (6): red_tmp[i] += red_tmp[i + h], h = 32, ..., 1
struct WeightedSum {
    p: Xyzz,
    s: Xyzz,
}

fn weighted_sum(lid: u32, acc: Xyzz, r: Xyzz, doublings: u32) -> WeightedSum {
    red_tmp[lid] = r;
    var m = xyzz_zero();
    var s = xyzz_zero();
    let scan_end = REDUCE_WG_LOG2;
    let acc_round = scan_end + doublings;
    let rounds = acc_round + 1u + REDUCE_WG_LOG2;
    workgroupBarrier();
    for (var k = 0u; k < rounds; k += 1u) {
        if (k == scan_end) {
            // The scan is done: this lane's suffix sum (lane 0: s).
            m = red_tmp[lid];
            s = m;
        }
        // What this lane adds this round; lanes with nothing to add skip the addition
        // (a warp whose lanes all skip it does not run it).
        var x = m;
        var y = m;
        var adds = true;
        let to_shared = k < scan_end || k >= acc_round;
        if (k < scan_end) {
            let d = 1u << k;
            adds = lid + d < REDUCE_WG;
            x = red_tmp[lid];
            y = red_tmp[min(lid + d, REDUCE_WG - 1u)];
        } else if (k == acc_round) {
            x = acc;
            if (lid == 0u) {
                y = xyzz_zero();
            }
        } else if (k > acc_round) {
            let h = REDUCE_WG >> (k - acc_round);
            adds = lid < h;
            x = red_tmp[lid];
            y = red_tmp[min(lid + h, REDUCE_WG - 1u)];
        }
        workgroupBarrier();
        if (adds) {
            let sum = xyzz_add(x, y);
            if (to_shared) {
                red_tmp[lid] = sum;
            } else {
                m = sum;
            }
        }
        workgroupBarrier();
    }
    return WeightedSum(red_tmp[0], s);
}

/// log2 of the buckets a reduction segment holds (`per`, a power of two).
fn per_log2() -> u32 {
    let spw = params.segs_per_window;
    return firstTrailingBit((params.num_buckets + spw - 1u) / spw);
}

/// Workgroup (w, g), lane i: segment j = REDUCE_WG g + i of window w. Writes P_g and S_g (see
/// the top of this file) as window-group points 2 (w * G + g) and 2 (w * G + g) + 1.
@compute @workgroup_size(REDUCE_WG)
fn reduce_groups(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let gpw = params.groups_per_window;
    let w = wid.x / gpw;
    let g = wid.x % gpw;
    let at = share_base() + 2u * (w * params.segs_per_window + g * REDUCE_WG + lid);
    let sums = weighted_sum(lid, load_point(at), load_point(at + 1u), per_log2());
    if (lid == 0u) {
        store_point(group_base() + 2u * (w * gpw + g), sums.p);
        store_point(group_base() + 2u * (w * gpw + g) + 1u, sums.s);
    }
}

/// Workgroup w, lane g < G: group g of window w (G a power of two, at most REDUCE_WG).
/// Writes the window's two sums
///   Z_w = sum_g P_g + sum_g g * S_g,   Y_w = sum_g g * S_g
/// as points w and W + w of the window sums (where the thread shares were: they are
/// spent); the host's combine takes S_w = Z_w + (REDUCE_WG * per - 1) * Y_w, so the
/// doublings of the weight run there, not in a chain of rounds here. Rounds, one
/// addition each, L = log2 G:
///   scan  (L): red_tmp[g] += red_tmp[g + d]: suffix sums of S (sum_g g * S_g is the
///              sum of the suffixes from lane 1 on)
///   leaves (1): red_tmp[g] = P_g + suffix_g (lane 0: P_0); where 2G <= REDUCE_WG,
///              red_tmp[G + g] = suffix_g (lane 0: zero)
///   trees (L): red_tmp[i] += red_tmp[i + h] in both halves side by side, h = G/2, ..., 1;
///              where 2G > REDUCE_WG, the tree of the leaves, one round that puts the
///              suffixes in their place (lane 0 keeps Z_w), then theirs (2L + 1).
@compute @workgroup_size(REDUCE_WG)
fn reduce_windows(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let gpw = params.groups_per_window;
    let w = wid.x;
    var p = xyzz_zero();
    var suf = xyzz_zero();
    if (lid < gpw) {
        p = load_point(group_base() + 2u * (w * gpw + lid));
        suf = load_point(group_base() + 2u * (w * gpw + lid) + 1u);
    }
    let l = firstTrailingBit(gpw);
    let side = 2u * gpw <= REDUCE_WG;
    let trees = select(2u * l + 1u, l, side);
    let rounds = l + 1u + trees;
    // Lanes from G on hold zero, which the scan never overwrites.
    red_tmp[lid] = suf;
    workgroupBarrier();
    var z = xyzz_zero();
    for (var k = 0u; k < rounds; k += 1u) {
        var x = xyzz_zero();
        var y = xyzz_zero();
        var adds = false;
        // Tree round t (after the scan and the leaves), and whether it is the round
        // between the two trees where they run one after the other.
        let t = k - l - 1u;
        let swap = !side && k > l && t == l;
        if (k < l) {
            let d = 1u << k;
            adds = lid + d < gpw;
            x = red_tmp[lid];
            y = red_tmp[min(lid + d, REDUCE_WG - 1u)];
        } else if (k == l) {
            suf = red_tmp[lid];
            adds = lid >= 1u && lid < gpw;
            x = p;
            y = suf;
        } else if (!swap) {
            // Which half this lane sums (side by side), or which tree runs now.
            let upper = side && lid >= gpw;
            let i = select(lid, lid - gpw, upper);
            let level = select(t, t - l - 1u, !side && t > l);
            let h = gpw >> (level + 1u);
            adds = i < h && (side || lid < gpw);
            x = red_tmp[lid];
            y = red_tmp[min(lid + h, REDUCE_WG - 1u)];
        }
        workgroupBarrier();
        if (adds) {
            x = xyzz_add(x, y);
        }
        if (k == l) {
            if (lid == 0u) {
                red_tmp[0] = p;
            } else if (lid < gpw) {
                red_tmp[lid] = x;
            }
            if (side && lid < gpw) {
                if (lid == 0u) {
                    red_tmp[gpw] = xyzz_zero();
                } else {
                    red_tmp[gpw + lid] = suf;
                }
            }
        } else if (swap) {
            // Lane 0 reads and rewrites only its own slot.
            if (lid == 0u) {
                z = red_tmp[0];
                red_tmp[0] = xyzz_zero();
            } else if (lid < gpw) {
                red_tmp[lid] = suf;
            }
        } else if (adds) {
            red_tmp[lid] = x;
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        var zw = z;
        var yw = red_tmp[0];
        if (side) {
            zw = red_tmp[0];
            yw = red_tmp[gpw];
        }
        store_point_canonical(share_base() + w, zw);
        store_point_canonical(share_base() + params.num_windows + w, yw);
    }
}

/// Stores p as scratch point i with canonical coordinates (the host reads the window
/// sums as arkworks field elements).
fn store_point_canonical(i: u32, p: Xyzz) {
    store_point_words(i, fq_pack(p.x), fq_pack(p.y), fq_pack(p.zz), fq_pack(p.zzz));
}
