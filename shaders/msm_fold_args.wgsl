// Requires: msm_params. Sizes the fold stage's dispatches on the device, where the
// pass's largest bucket is known (msm_sort.wgsl's scan writes it after the counts):
// fold step s gets the workgroups msm_fold.wgsl's step s needs when the pass needs it,
// and none otherwise, so that the host records every step as an indirect dispatch and
// the steps a pass does not need cost no launch (with uniform scalars most passes need
// one or two of the 10 to 15 steps a window's chunks allow, and each of the others
// launched workgroups that returned at once: the fold stage took 0.07-0.08 ms a pass
// on an H200, docs/benchmark-log.md v20's timelines).
//
// Built apart from the MSM stages, with bindings of its own: the dispatch arguments it
// writes are read as indirect arguments while the fold runs, and a buffer may not be
// bound for writing where it is read that way.

@group(0) @binding(0) var<uniform> params: Params;
/// The MSM's bucket counters; the word after the W*B counters is the largest bucket.
@group(0) @binding(1) var<storage, read> fold_counts: array<u32>;
/// Three words (x, y, z workgroups) per fold step.
@group(0) @binding(2) var<storage, read_write> fold_dispatch: array<u32>;

/// Workgroups per dimension every adapter allows (WebGPU's minimum); the fold kernel
/// finds its thread from the grid it is given, so any split of the groups will do.
const FOLD_MAX_X: u32 = 65535u;

/// Lane s: the arguments of fold step s, for a fold kernel of 64-thread workgroups
/// (one thread per pair of chunk partials, as the host's direct dispatches size it).
@compute @workgroup_size(32)
fn fold_args(@builtin(local_invocation_index) s: u32) {
    let largest = fold_counts[params.num_windows * params.num_buckets];
    let steps = fold_steps_for(largest, params.chunk_len);
    var groups = 0u;
    if (s < steps && s < 31u) {
        let pairs = (params.chunks_per_window + (2u << s) - 1u) >> (s + 1u);
        groups = (params.num_windows * pairs + 63u) / 64u;
    }
    let x = min(groups, FOLD_MAX_X);
    fold_dispatch[3u * s] = x;
    fold_dispatch[3u * s + 1u] = select(1u, (groups + x - 1u) / x, x > 0u);
    fold_dispatch[3u * s + 2u] = 1u;
}
