// Requires: nothing. The parameters of one MSM pass, shared by the MSM stages
// (msm_bindings.wgsl) and the kernel that sizes the fold stage's dispatches
// (msm_fold_args.wgsl), which is built with a layout of its own.

/// Sizes of the current chunk; see the buffer layout in msm_bindings.wgsl.
struct Params {
    n: u32,
    window_bits: u32,
    num_windows: u32,
    num_buckets: u32,
    chunk_len: u32,
    chunks_per_window: u32,
    // Points of a reduction tree: REDUCE_WG of msm_reduce.wgsl (the host sizes the
    // reduction's dispatches by it).
    reduce_wg: u32,
    // log2 of the buckets a `reduce_walk` thread walks (0: no walk), msm_reduce.wgsl.
    reduce_seg_log2: u32,
    // The pass computes windows first_window .. first_window + num_windows; buffers
    // index them from 0.
    first_window: u32,
    // How the pass's buckets reach the totals: HEADS_* in msm_accumulate.wgsl.
    heads: u32,
    // Points of the pass (n counts entries: points, or twice that in the layouts of
    // two entries a point).
    points: u32,
    // What the entries are: LAYOUT_* in msm_decompose.wgsl.
    entry_layout: u32,
    // How the scatter places entries (`plan::ScatterMode`): SCATTER_RANKS when the
    // decompose stage keeps each entry's rank in its bucket for it (`rank_index` in
    // msm_bindings.wgsl), SCATTER_BINS through bins (msm_sort.wgsl), SCATTER_CURSORS by
    // the bucket counters.
    scatter: u32,
    // Windows of the scalar (from window 0) that are window_bits wide; the ones above
    // are a bit narrower (`Plan::full_windows`).
    full_windows: u32,
    // Bucket partials a window holds in scratch, P (`Plan::bucket_partials`): one a
    // bucket (P = B), or one a chunk (P = C < B) where every pass of the plan seeds its
    // heads (`bucket_partial_index` in msm_accumulate.wgsl).
    bucket_partials: u32,
}

const SCATTER_CURSORS: u32 = 0u;
const SCATTER_RANKS: u32 = 1u;
const SCATTER_BINS: u32 = 2u;

/// Fold steps a pass needs when its largest bucket holds `largest` entries and an
/// accumulation chunk `chunk_len`: the fewest S with 2^S >= the most chunks that start
/// inside one bucket (at most ceil(largest / chunk_len)); see msm_fold.wgsl.
fn fold_steps_for(largest: u32, chunk_len: u32) -> u32 {
    let span = (largest + chunk_len - 1u) / chunk_len;
    if (span <= 1u) {
        return 0u;
    }
    return 32u - countLeadingZeros(span - 1u);
}
