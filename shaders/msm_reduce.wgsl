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
//   A_g = sum_i acc_j,   B_g = sum_i i * R_j,   S_g = sum_i R_j
// (`group_sums`: a suffix scan and two trees in shared memory), and `reduce_windows`
// the sums over the G <= K / 2 groups of a window, with the weights left to the host:
//   S_w = sum_g A_g + per * (sum_g B_g + K * sum_g g * S_g) = X_w + per * V_w + K per Y_w.
// The host reads X_w, V_w and Y_w of every window and combines them as sum 2^(c*w) * S_w,
// its doublings split around the three (`encode::combine_window_sums`): no doubling
// runs here, where every round is one addition's latency on few threads.
//
// A wide window is reduced in parts of P = min(num_buckets, REDUCE_PART_BUCKETS)
// contiguous buckets, each reduced as a window of its own (the "windows" of this file
// are these parts, `part_count` of them), so that it gets as many threads as a window of
// P buckets: part v of window w sums to S'_v = sum over its buckets of (b - v P + 1) *
// total_b, and S_w = sum_v S'_v + P * sum_v v * T_v, with T_v the part's plain total,
// its fourth sum T_w = sum_g S_g.
// (Multiplying each R_j by lo_j inside the thread instead, by double-and-add, would
// take log2 lo_j doublings a thread on top of these sums.)
//
// `reduce_windows` runs a workgroup a window, a handful of them on an idle GPU, so each
// of its rounds is one addition's latency on a lone warp; it adds through `reduce_add`
// (reduce_add_lane.wgsl: a lane an addition, or reduce_add_coop.wgsl: REDUCE_ROLES
// warps an addition, each computing a share of its products) with REDUCE_THREADS =
// REDUCE_WG * REDUCE_ROLES threads, and every lane of its trees is a slot shared by its
// REDUCE_ROLES threads (all of them compute the lane's values; only role 0 writes them
// to workgroup memory or out). `reduce_groups`, with a workgroup per group of every
// window, already fills the GPU's schedulers at the sizes where rounds count, and adds
// a lane an addition.
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

/// Index of the first thread share in scratch (after the window-group sums, three a
/// group): segment (w, j) has acc_j at 2 (w * spw + j) and R_j right after it.
fn share_base() -> u32 {
    return group_base() + 3u * part_count() * params.groups_per_window;
}

/// Most buckets of a part, generated from `stages::REDUCE_PART_BUCKETS`.
const REDUCE_PART_BUCKETS: u32 = ${REDUCE_PART_BUCKETS}u;

/// The windows this file reduces: the parts of every window (see the top of the file).
fn part_count() -> u32 {
    return params.num_windows * max(params.num_buckets / REDUCE_PART_BUCKETS, 1u);
}

/// Buckets of a part.
fn part_buckets() -> u32 {
    return min(params.num_buckets, REDUCE_PART_BUCKETS);
}

/// Thread (w, j): acc_j and R_j of segment j of window w.
@compute @workgroup_size(64)
fn reduce(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = linear_id(gid, nwg);
    let spw = params.segs_per_window;
    let w = t / spw;
    let seg = t % spw;
    if (w >= part_count()) {
        return;
    }
    let nb = part_buckets();
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

/// Half a reduction workgroup: the lanes of each of `group_sums`' two trees.
const REDUCE_HALF: u32 = REDUCE_WG / 2u;

/// The three sums a reduction workgroup computes over its lanes i (every lane calls
/// it, in uniform control flow), valid in lane 0:
///   a = sum_i acc_i,   b = sum_i i * r_i,   s = sum_i r_i.
/// Rounds, one addition each, lanes in step (L = log2 REDUCE_WG, H = REDUCE_WG / 2):
///   scan   (L): red_tmp[i] += red_tmp[i + d], d = 1, 2, ..., H: suffix sums of r
///               (sum_i i * r_i = the sum of the suffix sums from lane 1 on)
///   leaves (1): lane i < H sums the suffixes of lanes i and H + i (lane 0's counts as
///               zero; it is s), lane H + i the acc of lanes i and H + i
///   trees  (L - 1): red_tmp[i] += red_tmp[i + h] in both halves side by side, h = H/2,
///               ..., 1: red_tmp[0] = b, red_tmp[H] = a
struct GroupSums {
    a: Xyzz,
    b: Xyzz,
    s: Xyzz,
}

fn group_sums(lid: u32, acc: Xyzz, r: Xyzz) -> GroupSums {
    red_tmp[lid] = r;
    let leaves = REDUCE_WG_LOG2;
    let rounds = 2u * REDUCE_WG_LOG2;
    var s = xyzz_zero();
    workgroupBarrier();
    for (var k = 0u; k < rounds; k += 1u) {
        // What this lane adds this round; lanes with nothing to add skip the addition
        // (a warp whose lanes all skip it does not run it).
        var x = xyzz_zero();
        var y = xyzz_zero();
        var adds = true;
        if (k < leaves) {
            let d = 1u << k;
            adds = lid + d < REDUCE_WG;
            x = red_tmp[lid];
            y = red_tmp[min(lid + d, REDUCE_WG - 1u)];
        } else if (k == leaves) {
            // The scan is done: lane 0's suffix is s. The lower lanes take the suffixes,
            // then lend their acc to the upper lanes.
            let suf = red_tmp[lid];
            if (lid == 0u) {
                s = suf;
            } else if (lid < REDUCE_HALF) {
                x = suf;
            }
            if (lid < REDUCE_HALF) {
                y = red_tmp[lid + REDUCE_HALF];
            }
            workgroupBarrier();
            if (lid < REDUCE_HALF) {
                red_tmp[lid] = acc;
            }
            workgroupBarrier();
            if (lid >= REDUCE_HALF) {
                x = acc;
                y = red_tmp[lid - REDUCE_HALF];
            }
        } else {
            let h = REDUCE_HALF >> (k - leaves);
            adds = (lid & (REDUCE_HALF - 1u)) < h;
            x = red_tmp[lid];
            y = red_tmp[min(lid + h, REDUCE_WG - 1u)];
        }
        workgroupBarrier();
        if (adds) {
            red_tmp[lid] = xyzz_add(x, y);
        }
        workgroupBarrier();
    }
    return GroupSums(red_tmp[REDUCE_HALF], red_tmp[0], s);
}

/// Workgroup (w, g), lane i: segment j = REDUCE_WG g + i of window w. Writes A_g, B_g
/// and S_g (see the top of this file) as window-group points 3 (w * G + g) + 0, 1, 2.
@compute @workgroup_size(REDUCE_WG)
fn reduce_groups(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let gpw = params.groups_per_window;
    let w = wid.x / gpw;
    let g = wid.x % gpw;
    let at = share_base() + 2u * (w * params.segs_per_window + g * REDUCE_WG + lid);
    let sums = group_sums(lid, load_point(at), load_point(at + 1u));
    if (lid == 0u) {
        let out = group_base() + 3u * (w * gpw + g);
        store_point(out, sums.a);
        store_point(out + 1u, sums.b);
        store_point(out + 2u, sums.s);
    }
}

/// Workgroup w, lane g < G: group g of window w (G a power of two, at most
/// REDUCE_WG / 2). Writes the window's four sums
///   X_w = sum_g A_g,   V_w = sum_g B_g,   Y_w = sum_g g * S_g,   T_w = sum_g S_g
/// as points w, W + w, 2W + w and 3W + w of the window sums (where the thread shares
/// were: they are spent). Rounds, one addition each, L = log2 G:
///   scan   (L): red_tmp[g] += red_tmp[g + d]: suffix sums of S (sum_g g * S_g is the
///               sum of the suffixes from lane 1 on)
///   leaves (1): three trees side by side, of the A, the B and the suffixes u (lane 0's
///               counts as zero), each of M leaves at red_tmp[t M ..]: where 3G fits the
///               lanes, M = G and the leaves are placed (no addition); else M = G / 2 and
///               this round adds their pairs (g, g + M)
///   trees  (log2 M): red_tmp[t M + i] += red_tmp[t M + i + h], h = M/2, ..., 1
@compute @workgroup_size(REDUCE_THREADS)
fn reduce_windows(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
    let lid = reduce_slot(tid);
    let role = reduce_role(tid);
    let writes = role == 0u;
    let gpw = params.groups_per_window;
    let w = wid.x;
    var a = xyzz_zero();
    var b = xyzz_zero();
    var sg = xyzz_zero();
    if (lid < gpw) {
        let at = group_base() + 3u * (w * gpw + lid);
        a = load_point(at);
        b = load_point(at + 1u);
        sg = load_point(at + 2u);
    }
    let l = firstTrailingBit(gpw);
    let pairs = 3u * gpw > REDUCE_WG;
    let m = select(gpw, gpw / 2u, pairs);
    let rounds = l + 1u + firstTrailingBit(m);
    // Lanes from G on hold zero, which the scan never overwrites.
    if (writes) {
        red_tmp[lid] = sg;
    }
    // The window's plain total T_w (lane 0's suffix).
    var total = xyzz_zero();
    workgroupBarrier();
    for (var k = 0u; k < rounds; k += 1u) {
        var x = xyzz_zero();
        var y = xyzz_zero();
        var adds = false;
        if (k < l) {
            let d = 1u << k;
            adds = lid + d < gpw;
            x = red_tmp[lid];
            y = red_tmp[min(lid + d, REDUCE_WG - 1u)];
        } else if (k == l) {
            // This lane's suffix (lane 0's is the window's whole sum, not a term of Y).
            var u = red_tmp[lid];
            if (lid == 0u) {
                total = u;
                u = xyzz_zero();
            }
            workgroupBarrier();
            if (!pairs) {
                if (lid < gpw && writes) {
                    red_tmp[lid] = a;
                    red_tmp[gpw + lid] = b;
                    red_tmp[2u * gpw + lid] = u;
                }
            } else {
                // 3G values, 2G = REDUCE_WG slots: the A and B first, then the u.
                if (lid < gpw && writes) {
                    red_tmp[lid] = a;
                    red_tmp[gpw + lid] = b;
                }
                workgroupBarrier();
                if (lid < m) {
                    x = red_tmp[lid];
                    y = red_tmp[lid + m];
                } else if (lid < gpw) {
                    x = red_tmp[gpw + lid - m];
                    y = red_tmp[gpw + lid];
                }
                workgroupBarrier();
                if (lid < gpw && writes) {
                    red_tmp[lid] = u;
                }
                workgroupBarrier();
                if (lid >= gpw && lid < gpw + m) {
                    x = red_tmp[lid - gpw];
                    y = red_tmp[lid - m];
                }
                adds = lid < 3u * m;
            }
        } else {
            let h = m >> (k - l);
            adds = lid < 3u * m && (lid & (m - 1u)) < h;
            x = red_tmp[lid];
            y = red_tmp[min(lid + h, REDUCE_WG - 1u)];
        }
        workgroupBarrier();
        let sum = reduce_add(x, y, adds, role, lid);
        if (adds && writes) {
            red_tmp[lid] = sum;
        }
        workgroupBarrier();
    }
    if (lid == 0u && writes) {
        let nw = part_count();
        store_point_canonical(share_base() + w, red_tmp[0]);
        store_point_canonical(share_base() + nw + w, red_tmp[m]);
        store_point_canonical(share_base() + 2u * nw + w, red_tmp[2u * m]);
        store_point_canonical(share_base() + 3u * nw + w, total);
    }
}

/// Stores p as scratch point i with canonical coordinates (the host reads the window
/// sums as arkworks field elements).
fn store_point_canonical(i: u32, p: Xyzz) {
    store_point_words(i, fq_pack(p.x), fq_pack(p.y), fq_pack(p.zz), fq_pack(p.zzz));
}
