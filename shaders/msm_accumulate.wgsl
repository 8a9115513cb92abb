// Requires: msm_bindings, msm_points (scratch and totals). Stage 4: bucket accumulation
// with mixed additions.
//
// The sorted entries of a window are cut into chunks of L = chunk_len entries, one
// thread each, whatever the buckets: a hot bucket is spread over many threads and costs
// what uniform scalars cost. A thread sums each run of equal buckets in its chunk; the
// run that starts a bucket is its head.
//
// Where the runs go depends on params.heads (the host's `pass::Heads`). HEADS_FIRST and
// HEADS_SEEDED: a head starts from the bucket's total so far (zero in an MSM's first
// pass, so nothing is loaded there), and a head that also ends its bucket is the whole
// bucket: it is stored as the bucket's total and no later stage touches that bucket.
// HEADS_PIECES: every run starts from zero. Either way, the other runs go to chunk
// partial k when they start the chunk, else (a head starting mid-chunk) to their
// bucket's partial (`bucket_partial_index`), and stage 5 adds each remaining bucket's
// pieces into its total.

const HEADS_FIRST: u32 = 0u;
const HEADS_SEEDED: u32 = 1u;
const HEADS_PIECES: u32 = 2u;

/// Index in scratch of the partial of bucket b of window w left by a run that starts
/// mid-chunk k and ends past it. The bucket partials come first in scratch, P a window
/// (`params.bucket_partials`): P = B, one a bucket, unless every pass of the plan seeds
/// its heads and a window has fewer chunks than buckets; then P = C < B, one a chunk
/// (outside HEADS_PIECES passes only a chunk's last run can start mid-chunk and end
/// past it).
fn bucket_partial_index(w: u32, k: u32, b: u32) -> u32 {
    let p = params.bucket_partials;
    return w * p + select(b, k, p < params.num_buckets);
}

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

/// The start of a run of bucket b: its total so far when the run is the bucket's head
/// (it starts at the bucket's first entry) in a HEADS_SEEDED pass, else zero.
fn run_seed(w: u32, b: u32, head: bool) -> Xyzz {
    if (head && params.heads == HEADS_SEEDED) {
        return load_total(w * params.num_buckets + b);
    }
    return xyzz_zero();
}

/// Whether a run of bucket b that is its head (`head`) and ends at `end` is the whole
/// bucket, to be stored as its total.
fn whole_bucket(head: bool, end: u32, next: u32) -> bool {
    return head && end == next && params.heads != HEADS_PIECES;
}

/// Stores a finished run of bucket b: at the bucket's total if it is the whole bucket
/// (`whole`), else at its chunk's partial if it began the chunk, else at the bucket's
/// partial.
fn flush_run(acc: Xyzz, whole: bool, at_chunk_start: bool, w: u32, k: u32, b: u32) {
    if (whole) {
        store_total(w * params.num_buckets + b, acc);
    } else {
        // One store site for both partials: threads of a warp that change buckets at
        // one step take one path fewer (measured: 1-2% of the accumulation,
        // docs/benchmark-log.md v18).
        let chunk = chunk_base() + w * params.chunks_per_window + k;
        store_point(select(bucket_partial_index(w, k, b), chunk, at_chunk_start), acc);
    }
}

/// Thread (w, k): sums chunk k of window w's sorted entries. Lane 0 of each workgroup
/// also counts the workgroup in on arrival and out when its own chunk is done, and
/// raises the most seen running at once (`note_arrival`): the host shapes later passes
/// into whole waves of that many workgroups (`Params::in_whole_waves`).
@compute @workgroup_size(64)
fn accumulate(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    if (lid == 0u) {
        note_arrival();
    }
    accumulate_chunk(linear_id(gid, nwg));
    if (lid == 0u) {
        atomicAdd(&counts[departed_index()], 1u);
    }
}

/// Counts a workgroup in and raises the most running at once to the workgroups counted
/// in and not yet out (a workgroup counted out may still be finishing other lanes, so
/// the count never exceeds what the device runs at once).
fn note_arrival() {
    let arrived = atomicAdd(&counts[arrived_index()], 1u) + 1u;
    let departed = atomicLoad(&counts[departed_index()]);
    atomicMax(&counts[most_running_index()], arrived - min(departed, arrived));
}

/// Thread t = (w, k) of the accumulation: chunk k of window w.
fn accumulate_chunk(t: u32) {
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
    // For the fold stage, which needs the bucket at each chunk's start.
    digits[chunk_bucket_index(w, k)] = b;
    var next = offsets[ob + b + 1u];
    var head = offsets[ob + b] == start;
    run_sum_set(run_seed(w, b, head));
    var run_start = start;
    // The base of entry pos is loading while the addition of entry pos - 1 runs: its
    // loads are issued one iteration ahead (the last iteration reloads its own entry).
    var e = sorted[row + start];
    var words = load_base_words(e & ~SIGN_BIT);
    for (var pos = start; pos < end; pos++) {
        if (pos == next) {
            flush_run(run_sum(), whole_bucket(head, pos, next), run_start == start, w, k, b);
            // The next non-empty bucket starts here: this run is its head.
            run_start = pos;
            b += 1u;
            while (offsets[ob + b + 1u] <= pos) {
                b += 1u;
            }
            next = offsets[ob + b + 1u];
            head = true;
            run_sum_set(run_seed(w, b, true));
        }
        var p = base_of_words(words);
        let neg = (e & SIGN_BIT) != 0u;
        e = sorted[row + min(pos + 1u, end - 1u)];
        words = load_base_words(e & ~SIGN_BIT);
        if (neg) {
            p = affine_neg(p);
        }
        run_sum_madd(p);
    }
    flush_run(run_sum(), whole_bucket(head, end, next), run_start == start, w, k, b);
}
