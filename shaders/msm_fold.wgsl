// Requires: msm_bindings, msm_points (scratch and totals), msm_accumulate (its layout
// of pieces). Stages 5 and 6, one kernel (a driver compiles each kernel's point
// addition anew, and every kernel more made the cold pipeline build slower):
//
// Fold: the chunk partials of each bucket in a tree, so a hot bucket (all scalars
// equal, or the top window, whose few bits put every point in a handful of buckets)
// costs O(log n) serial additions instead of O(n / L).
//
// Step s (s = 0, 1, ...): partial k = i * 2^(s+1) absorbs partial k + 2^s when both
// chunks start in the same bucket. Only the first S steps run, S the fewest with 2^S
// at least the most chunks any bucket of the pass spans (`fold_steps_needed`; 0 for
// most passes of uniform scalars, log2(C) for one hot bucket); later dispatches return
// at once. Afterwards partial k holds chunks [k, k + stride(k)) of its bucket, with
// stride(k) = min(lowbit(k), 2^S) (2^S for k = 0).

// Collect (fold step COLLECT): adds this pass's pieces of each bucket into its total,
// so that only the MSM's last pass runs the bucket reduction. A bucket's pieces are its
// bucket partial (when it starts mid-chunk) and the chunk partials of the chunks
// starting inside it, O(log C) of them after the fold however hot the bucket is. In a
// HEADS_FIRST or HEADS_SEEDED pass (see msm_accumulate.wgsl) a bucket within one chunk
// is done already, and the others' pieces already hold the old total, so they are
// summed from zero; in a HEADS_PIECES pass they are added to the old total.

/// Which fold step a dispatch runs (and which stage of the reduction's trees,
/// msm_reduce.wgsl); bound with a dynamic offset per step.
struct FoldStep {
    shift: u32,
}

/// The step value that makes a dispatch collect (fold steps stay below it).
const COLLECT: u32 = 31u;

@group(1) @binding(0) var<uniform> fold_step: FoldStep;

/// Fold steps this pass needs (`fold_steps_for` of its largest bucket).
fn fold_steps_needed() -> u32 {
    return fold_steps_for(atomicLoad(&counts[largest_bucket_index()]), params.chunk_len);
}

/// Fold step s, thread (w, i): one pair of window w. Collect, thread (w, b): bucket b of
/// window w, or (outside HEADS_PIECES passes, with fewer chunks than buckets) thread
/// (w, c): the bucket chunk c of window w starts in.
/// Either way the thread adds a list of pieces into one point with a single call site
/// of xyzz_add.
@compute @workgroup_size(64)
fn fold(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = linear_id(gid, nwg);
    let s = fold_step.shift;
    let collect = s == COLLECT;
    let steps = fold_steps_needed();
    if (!collect && s >= steps) {
        return;
    }
    let cpw = params.chunks_per_window;
    let l = params.chunk_len;
    let nb = params.num_buckets;
    let pieces = params.heads == HEADS_PIECES;
    // Collect runs a thread per bucket in a HEADS_PIECES pass (every bucket has pieces
    // to add to its total). Otherwise only buckets that span chunks have pieces, at
    // most one per chunk or per bucket, whichever are fewer: with more buckets than
    // chunks (few points a bucket) a thread per chunk, where the thread of chunk k
    // collects the bucket that chunk k starts in when k is the first chunk to start
    // inside it (most of those threads are busy, where a thread per bucket left most
    // idle beside busy ones); else a thread per bucket. `collect_per_chunk` on the host
    // makes the same choice.
    let per_chunk = !pieces && cpw < nb;
    var w: u32;
    var pairs = 0u;
    if (collect && !per_chunk) {
        w = t / nb;
    } else if (collect) {
        w = t / cpw;
    } else {
        pairs = (cpw + (2u << s) - 1u) >> (s + 1u);
        w = t / pairs;
    }
    if (w >= params.num_windows) {
        return;
    }
    let ob = w * (nb + 1u);
    let cb = chunk_base() + w * cpw;
    // The pieces: the bucket partial of bucket b (when `partial`, at `partial_at`),
    // then chunk partials k ..= last (for collect, stepping k by its stride; for a
    // fold, just one).
    var b = 0u;
    var partial = false;
    var partial_at = 0u;
    var k: u32;
    var last: u32;
    var dst: u32;
    var acc: Xyzz;
    if (collect) {
        if (!per_chunk) {
            b = t % nb;
        } else {
            let c = t % cpw;
            if (c == 0u || c * l >= offsets[ob + nb]) {
                return;
            }
            b = digits[chunk_bucket_index(w, c)];
            // Chunk c starts inside bucket b (not at its first entry), and chunk c - 1
            // does not: b's first entry lies in chunk c - 1.
            if (offsets[ob + b] / l != c - 1u) {
                return;
            }
        }
        let o = offsets[ob + b];
        let cnt = offsets[ob + b + 1u] - o;
        // Empty, or (unless pieces) within one chunk: accumulation stored its total.
        if (cnt == 0u || (!pieces && o / l == (o + cnt - 1u) / l)) {
            return;
        }
        partial = o % l != 0u;
        // Left by the run that starts the bucket, in chunk o / l.
        partial_at = bucket_partial_index(w, o / l, b);
        k = (o + l - 1u) / l;
        last = (o + cnt - 1u) / l;
        acc = xyzz_zero();
        if (pieces) {
            acc = load_total(w * nb + b);
        }
    } else {
        dst = (t % pairs) << (s + 1u);
        k = dst + (1u << s);
        last = k;
        if (k * l >= offsets[ob + nb]) {
            return;
        }
        // Same bucket when the bucket holding chunk dst's start runs past chunk k's.
        let bb = digits[chunk_bucket_index(w, dst)];
        if (offsets[ob + bb + 1u] <= k * l) {
            return;
        }
        acc = load_point(cb + dst);
    }
    let top = 1u << steps;
    loop {
        var y: Xyzz;
        if (partial) {
            y = load_point(partial_at);
            partial = false;
        } else if (k <= last) {
            y = load_point(cb + k);
            // The next piece starts where this one's range ends (a fold step adds one).
            let stride = select(min(k & (~k + 1u), top), top, k == 0u);
            k = select(k + stride, last + 1u, !collect);
        } else {
            break;
        }
        acc = xyzz_add(acc, y);
    }
    if (collect) {
        store_total(w * nb + b, acc);
    } else {
        store_point(cb + dst, acc);
    }
}
