// Requires: msm_bindings, msm_points (scratch and totals). Stage 7, on an MSM's last
// pass only: bucket reduction by parallel running sums over the bucket totals.
//
// Window w's sum is S_w = sum over b of (b + 1) * total_b (total_b: bucket b summed over
// every pass, the collect step of msm_fold.wgsl). Thread j of the window takes buckets [lo, hi) and walks
// them downwards keeping running = sum of the buckets seen and acc = sum of running
// after each step, so acc = sum (b - lo + 1) * total_b; adding lo * running gives its
// share of S_w, stored as a thread share. `reduce_groups` then adds each 64 shares in a
// workgroup tree and writes one window-group sum; the host adds the G sums of each
// window and combines windows as sum 2^(c*w) * S_w.
//
// Each kernel has a single call site of xyzz_add: a driver inlines every call site of
// the (large) point addition, and compiling one copy instead of five cut the cold
// pipeline build of this stage on an H200 from ~35 s to about a second. A reduce
// thread is therefore a small machine doing one addition per loop iteration.

const REDUCE_WG: u32 = 64u;
var<workgroup> red_tmp: array<Xyzz, REDUCE_WG>;

// What the next addition of a reduce thread is.
const STEP_RUNNING: u32 = 1u; // running += s
const STEP_ACC: u32 = 2u;     // acc += running, then the next bucket
const STEP_DBL: u32 = 3u;     // m += m (m = lo * running by double-and-add)
const STEP_ADD: u32 = 4u;     // m += running
const STEP_FINAL: u32 = 5u;   // acc += m
const STEP_NEXT: u32 = 6u;    // no addition: start the next bucket
const STEP_DONE: u32 = 7u;

/// Index of the first thread share in scratch (after the window-group sums).
fn share_base() -> u32 {
    return group_base() + params.num_windows * params.groups_per_window;
}

/// Thread (w, seg): the share of segment seg of window w.
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
    var m = xyzz_zero();
    var b = hi;
    var bit = 0u;
    var step = STEP_NEXT;
    loop {
        if (step == STEP_NEXT) {
            if (b == lo) {
                if (lo == 0u) {
                    break;
                }
                bit = firstLeadingBit(lo) + 1u;
                step = STEP_DBL;
            } else {
                // Bucket b's total; an empty one leaves running as it is.
                b -= 1u;
                s = load_total(w * nb + b);
                step = select(STEP_RUNNING, STEP_ACC, xyzz_is_inf(s));
            }
        }
        var x: Xyzz;
        var y: Xyzz;
        switch step {
            case STEP_RUNNING: { x = running; y = s; }
            case STEP_ACC: { x = acc; y = running; }
            case STEP_DBL: { x = m; y = m; }
            case STEP_ADD: { x = m; y = running; }
            default: { x = acc; y = m; }
        }
        let r = xyzz_add(x, y);
        switch step {
            case STEP_RUNNING: { running = r; step = STEP_ACC; }
            case STEP_ACC: { acc = r; step = STEP_NEXT; }
            case STEP_DBL: {
                m = r;
                bit -= 1u;
                if (((lo >> bit) & 1u) != 0u) {
                    step = STEP_ADD;
                } else if (bit == 0u) {
                    step = STEP_FINAL;
                }
            }
            case STEP_ADD: { m = r; step = select(STEP_DBL, STEP_FINAL, bit == 0u); }
            default: { acc = r; step = STEP_DONE; }
        }
        if (step == STEP_DONE) {
            break;
        }
    }
    store_point(share_base() + w * spw + seg, acc);
}

/// Workgroup (w, g): adds thread shares g*64 .. g*64+63 of window w in a tree.
@compute @workgroup_size(64)
fn reduce_groups(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let gpw = params.groups_per_window;
    let w = wid.x / gpw;
    let g = wid.x % gpw;
    let spw = params.segs_per_window;
    red_tmp[lid] = load_point(share_base() + w * spw + g * REDUCE_WG + lid);
    workgroupBarrier();
    // The bound comes from a uniform (spw >= 64 always) so that the compiler keeps one
    // copy of the addition instead of unrolling the six levels.
    for (var h = min(REDUCE_WG, spw) / 2u; h > 0u; h /= 2u) {
        if (lid < h) {
            red_tmp[lid] = xyzz_add(red_tmp[lid], red_tmp[lid + h]);
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        store_point(group_base() + w * gpw + g, red_tmp[0]);
    }
}
