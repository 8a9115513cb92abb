// Requires: msm_bindings, msm_points (scratch and totals), msm_fold (`fold_step`: the
// stage of a dispatch), a reduce_add module (reduce_add_lane.wgsl or
// reduce_add_coop.wgsl). Stage 7, on an MSM's last pass only: bucket reduction by bit
// trees over the bucket totals.
//
// Window w's sum is S_w = sum over b of (b + 1) * T_b (T_b: bucket b summed over every
// pass, the collect step of msm_fold.wgsl). With L = log2 num_buckets,
//   S_w = T + sum_{k < L} 2^k B_k,   T = sum_b T_b,   B_k = sum of T_b over the b whose bit k is set.
// The kernels compute T and the L bit sums B_k of every window; the host weights them
// by powers of two (src/msm/stages/combine.rs): no doubling runs here, where every
// round is one addition's latency.
//
// Wide windows are first cut into segments of 2^e buckets (e = params.reduce_seg_log2,
// `stages::reduce_seg_log2`), each walked down by one thread of `reduce_walk` keeping
// its running sum R_j and the sum of the running sums, A_j = sum_i (i + 1) T_{j 2^e + i}:
// a chain of two additions a bucket, spread over as many threads as fill the GPU, where
// the trees' levels would be that many rounds. Then
//   S_w = sum_j A_j + 2^e sum_j j R_j = A + sum_{k < L - e} 2^(e + k) B'_k,
// B'_k the bit sums of the segment index over the R_j: the trees below run over the
// segments as over buckets, with each segment's A_j as a value that only adds up.
//
// The bit sums come from the binary tree over a window's buckets. A node of level l
// covers the 2^l buckets [i 2^l, (i + 1) 2^l) and holds l + 1 values: its bit sums
// (the sums over its buckets whose offset in the node has bit k set, k < l), then its
// total. Two children of level l - 1 make their parent in one round: the parent's bit
// sums k < l - 1 and its total are the children's added (l additions), its bit sum
// l - 1 is the right child's total. A level's additions number its nodes' values, so
// the tree costs about two additions a bucket, as running sums do, in L rounds.
//
// The tree runs in stages of Q = REDUCE_WG_LOG2 levels (the last one fewer), one
// dispatch each. Stage s starts from the nodes of level d = s Q, each holding P values
// before its total (its d bit sums, after the segment's A_j where segments are walked)
// and takes blocks of 2^q of them (q = min(Q, levels - d)), a workgroup per value of
// each block: workgroup (w, J, j) sums value j over block J's nodes in a plain tree
// when j < P (those values only add up), and for j = P runs the tree above over the
// nodes' totals, giving the new node's total and its next q bit sums. The node it makes
// holds P + q values, then its total, so the last stage leaves each window's values
// ([B_0 .. B_{L-1}, T], or [A, B'_0 .. B'_{L-e-1}, T]), stored canonical for the host.
// A level l of a block's tree has 2^(q-l) nodes of l + 1 values: at most 2^q =
// REDUCE_WG slots of workgroup memory, and at most 2^(q-1) = TREE_LANES additions a
// round. (Below, "buckets" are the segments where they are walked first.)

// Points of workgroup memory a tree holds and their log2 (the levels of a stage),
// generated from `stages::reduce_wg`: 64, or fewer where 64 points do not fit the
// device's workgroup memory.
const REDUCE_WG: u32 = ${REDUCE_WG}u;
const REDUCE_WG_LOG2: u32 = ${REDUCE_WG_LOG2}u;
/// Lanes of a tree: half its slots (no round adds more).
const TREE_LANES: u32 = REDUCE_WG / 2u;
var<workgroup> red_tmp: array<Xyzz, REDUCE_WG>;

/// Levels of a window's tree: log2 of its segments (L - e).
fn tree_levels() -> u32 {
    return firstTrailingBit(params.num_buckets) - params.reduce_seg_log2;
}

/// Values a node of the tree's first level holds before its total: a segment's A_j, or
/// none where buckets are not walked in segments.
fn tree_first_values() -> u32 {
    return select(0u, 1u, params.reduce_seg_log2 > 0u);
}

/// Segments of a window.
fn walk_segments() -> u32 {
    return params.num_buckets >> params.reduce_seg_log2;
}

/// Scratch points `reduce_walk` writes: two a segment (A_j, then R_j), where it runs.
fn walk_points() -> u32 {
    return select(0u, 2u * params.num_windows * walk_segments(), params.reduce_seg_log2 > 0u);
}

/// Thread (w, j) of `reduce_walk`: A_j and R_j of segment j of window w (see the top
/// of the file), walking its buckets down with a single call site of xyzz_add.
@compute @workgroup_size(64)
fn reduce_walk(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = linear_id(gid, nwg);
    if (t >= params.num_windows * walk_segments()) {
        return;
    }
    let nb = params.num_buckets;
    let w = t / walk_segments();
    let lo = (t % walk_segments()) << params.reduce_seg_log2;
    var s = xyzz_zero();
    var running = xyzz_zero();
    var acc = xyzz_zero();
    var b = lo + (1u << params.reduce_seg_log2);
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
    store_point(tree_base() + 2u * t, acc);
    store_point(tree_base() + 2u * t + 1u, running);
}

/// Stages of the tree: ceil(L / Q).
fn tree_stages() -> u32 {
    return (tree_levels() + REDUCE_WG_LOG2 - 1u) / REDUCE_WG_LOG2;
}

/// Stage s of the tree (`stages::TreeStage` computes the same on the host).
struct TreeStage {
    s: u32,
    // Values a node it starts from holds before its total.
    p: u32,
    // Levels it adds.
    q: u32,
    // Blocks of 2^q nodes a window (nodes of level p + q it makes).
    blocks: u32,
}

fn tree_stage(s: u32) -> TreeStage {
    let l = tree_levels();
    let d = s * REDUCE_WG_LOG2;
    let q = min(REDUCE_WG_LOG2, l - d);
    return TreeStage(s, tree_first_values() + d, q, 1u << (l - d - q));
}

/// Points stage s writes: p + q + 1 values a node it makes.
fn tree_out_points(t: TreeStage) -> u32 {
    return params.num_windows * t.blocks * (t.p + t.q + 1u);
}

/// Scratch index of stage s's output, after the segments' sums: the even stages' at the
/// start of the trees' area, the odd stages' after stage 0's (the largest).
fn tree_out_base(s: u32) -> u32 {
    return tree_base() + walk_points() + select(0u, tree_out_points(tree_stage(0u)), (s & 1u) == 1u);
}

/// Value j of node `node` of window w, as stage t reads it: at stage 0 a bucket total,
/// or the segment's sums that `reduce_walk` wrote; later, what the stage before wrote.
fn tree_in(t: TreeStage, w: u32, node: u32, j: u32) -> Xyzz {
    let nodes = t.blocks << t.q;
    if (t.s == 0u) {
        if (params.reduce_seg_log2 == 0u) {
            return load_total(w * params.num_buckets + node);
        }
        return load_point(tree_base() + 2u * (w * nodes + node) + j);
    }
    return load_point(tree_out_base(t.s - 1u) + (w * nodes + node) * (t.p + 1u) + j);
}

/// Stores value j of the node stage t makes from block `block` of window w; the last
/// stage's canonical (the host reads them).
fn tree_out(t: TreeStage, w: u32, block: u32, j: u32, v: Xyzz) {
    let i = tree_out_base(t.s) + (w * t.blocks + block) * (t.p + t.q + 1u) + j;
    if (t.s + 1u == tree_stages()) {
        store_point_canonical(i, v);
    } else {
        store_point(i, v);
    }
}

/// One lane's addition in a round of a block's tree: the slots of its operands (at
/// level 1, the block's nodes 2 lane and 2 lane + 1 instead), where the sum goes, and
/// for the bit tree's first value of a node, the slot that takes the right operand
/// itself (the parent's top bit sum).
struct TreeTask {
    adds: bool,
    x: u32,
    y: u32,
    out: u32,
    copies: bool,
    copy: u32,
}

/// Lane `lane`'s task at level l (1 ..= q) of a plain tree (`bits` false: slot i of
/// level l is the sum of slots 2i and 2i + 1 of level l - 1) or of the bit tree (node i
/// of level l at slots i (l + 1) ..: its total, then its bit sums; values c < l are the
/// sums of value c of nodes 2i and 2i + 1, and value l, the top bit sum, is the right
/// node's total).
fn tree_task(bits: bool, q: u32, l: u32, lane: u32) -> TreeTask {
    let nodes = 1u << (q - l);
    if (!bits) {
        return TreeTask(lane < nodes, 2u * lane, 2u * lane + 1u, lane, false, 0u);
    }
    // A child (of level l - 1) holds l values: its total, then its bit sums (at level
    // 1 the children are the block's nodes, one value each, read by node index).
    let node = lane / l;
    let c = lane % l;
    let x = 2u * node * l + c;
    return TreeTask(lane < nodes * l, x, x + l, node * (l + 1u) + c, c == 0u, node * (l + 1u) + l);
}

/// Workgroup (w, J, j) of stage `fold_step.shift`, lane `slot` (see the top of the file):
/// sums value j of block J's nodes, or (j = p) runs its bit tree, and stores the results
/// in the node the block makes. Every thread of the workgroup calls reduce_add (it may
/// hold barriers); in reduce_add_coop.wgsl's form a lane's roles share its additions and
/// role 0 writes.
@compute @workgroup_size(REDUCE_THREADS)
fn reduce(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
    let lane = reduce_slot(tid);
    let writes = reduce_role(tid) == 0u;
    let t = tree_stage(fold_step.shift);
    let g = wid.x + wid.y * nwg.x;
    let per_block = t.p + 1u;
    let per_window = t.blocks * per_block;
    let w = g / per_window;
    if (w >= params.num_windows) {
        return;
    }
    let block = (g % per_window) / per_block;
    let j = g % per_block;
    let bits = j == t.p;
    let first = block << t.q;
    for (var l = 1u; l <= t.q; l += 1u) {
        let task = tree_task(bits, t.q, l, lane);
        var x = xyzz_zero();
        var y = xyzz_zero();
        if (task.adds) {
            if (l == 1u) {
                x = tree_in(t, w, first + task.x, j);
                y = tree_in(t, w, first + task.y, j);
            } else {
                x = red_tmp[task.x];
                y = red_tmp[task.y];
            }
        }
        workgroupBarrier();
        let sum = reduce_add(x, y, task.adds, reduce_role(tid), lane);
        if (task.adds && writes) {
            red_tmp[task.out] = sum;
            if (bits && task.copies) {
                red_tmp[task.copy] = y;
            }
        }
        workgroupBarrier();
    }
    if (!writes) {
        return;
    }
    if (bits) {
        // The root's total at slot 0, its bit sums at 1 ..= q: bit sums p .. p + q - 1
        // of the new node, then its total.
        if (lane <= t.q) {
            let v = red_tmp[lane];
            tree_out(t, w, block, select(t.p + lane - 1u, t.p + t.q, lane == 0u), v);
        }
    } else if (lane == 0u) {
        tree_out(t, w, block, j, red_tmp[0]);
    }
}

/// Stores p as scratch point i with canonical coordinates (the host reads the window
/// sums as arkworks field elements).
fn store_point_canonical(i: u32, p: Xyzz) {
    store_point_words(i, fq_pack(p.x), fq_pack(p.y), fq_pack(p.zz), fq_pack(p.zzz));
}
