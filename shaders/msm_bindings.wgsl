// Requires: curve, msm_params. Shared bindings and layout of every MSM stage.
//
// Buffers, for one chunk of n points and W windows of c bits (B = 2^(c-1) buckets each):
//   bases    n affine points, 16 words each (x, y in Montgomery form; (0,0) = infinity),
//            canonical (arkworks' words); fq_unpack converts to the registers' limbs.
//   scalars  n scalars, 8 words each (Montgomery form, as arkworks keeps Fr)
//   digits   W*n words: |digit| in bits 0..30 (0 = no contribution), sign in bit 31;
//            then, with params.scatter SCATTER_RANKS or SCATTER_BINS, W*n more words
//            (`rank_index`): each nonzero digit's rank in its bucket, or the entries
//            sorted by bin (msm_sort.wgsl); once scattered, its first W*C words hold
//            the bucket at each chunk's start
//   counts   W*B atomic counters (bucket sizes; then, by SCATTER_CURSORS, consumed as
//            the scatter's cursors, or by SCATTER_BINS, the first of each bin advanced
//            as its cursor), then one word: the largest bucket of the pass (entries)
//   offsets  W*(B+1) words: exclusive prefix of counts per window, then the total;
//            then W*T words: the count total of each scan tile (msm_sort.wgsl)
//   sorted   W*n words: point index | sign << 31, grouped by bucket within each window
//   scratch  XYZZ points (POINT_VEC4S vec4s each): bucket partials [W*P], chunk partials [W*C],
//            then the reduction's tree nodes (this pass only; its last stage leaves
//            each window's log2(B) + 1 sums there, msm_reduce.wgsl)
//   totals   XYZZ points: bucket totals [W*B], summed over every pass of one MSM (a
//            bucket that one accumulation run covers whole is added there directly)
//
// Loading and storing XYZZ points: msm_points.wgsl (coordinates as words) or
// src/shader/points.rs (the Wide64 G1 limbs), and msm_point_words.wgsl (canonical words
// for the host), instantiated for scratch (load_point, store_point) and totals
// (load_total, store_total).

const SIGN_BIT: u32 = 0x80000000u;
/// vec4s of one XYZZ point's place in scratch and totals (`GroupId::point_bytes` / 16):
/// room for four coordinates of POINT_VEC4S words (how a layout fills it: its module).
const POINT_VEC4S: u32 = ${POINT_VEC4S}u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> bases: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> scalars: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read_write> digits: array<u32>;
@group(0) @binding(4) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> offsets: array<u32>;
@group(0) @binding(6) var<storage, read_write> sorted: array<u32>;
@group(0) @binding(7) var<storage, read_write> scratch: array<vec4<u32>>;
@group(0) @binding(8) var<storage, read_write> totals: array<vec4<u32>>;

/// The linear invocation index of a 2D dispatch of 64-wide workgroups.
fn linear_id(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return gid.x + gid.y * nwg.x * 64u;
}

/// The words of a base as loaded (x, then y), before conversion to limbs.
struct BaseWords {
    x: Big,
    y: Big,
}

/// The words of base i (x, then y, each BIG_VEC4S vec4s). Nothing here uses the loaded
/// values, so a caller can issue the loads of its next base before its current work
/// and convert them (`base_of_words`) when it needs the point.
fn load_base_words(i: u32) -> BaseWords {
    let o = 2u * BIG_VEC4S * i;
    return BaseWords(${BIG_OF:bases:o:0}, ${BIG_OF:bases:o:1});
}

/// The affine point of a base's words.
fn base_of_words(b: BaseWords) -> Affine {
    return Affine(fq_unpack(b.x), fq_unpack(b.y));
}

/// Index of the first chunk partial in scratch.
fn chunk_base() -> u32 {
    return params.num_windows * params.bucket_partials;
}

/// Index of the reduction's first tree node in scratch.
fn tree_base() -> u32 {
    return chunk_base() + params.num_windows * params.chunks_per_window;
}

/// Index in counts of the largest bucket of the pass (written by scan).
fn largest_bucket_index() -> u32 {
    return params.num_windows * params.num_buckets;
}

/// Index in counts of the accumulation's workgroups counted in, of those counted out,
/// and of the most running at once (see msm_accumulate.wgsl), after the largest bucket
/// (`plan::COUNTS_AFTER_BUCKETS` words in all).
fn arrived_index() -> u32 {
    return largest_bucket_index() + 1u;
}

fn departed_index() -> u32 {
    return largest_bucket_index() + 2u;
}

fn most_running_index() -> u32 {
    return largest_bucket_index() + 3u;
}

/// Index in digits of the rank of entry `at` (= w*n + e) in its bucket.
fn rank_index(at: u32) -> u32 {
    return params.num_windows * params.n + at;
}

/// Index in digits of the bucket at the start of chunk k of window w (written by
/// accumulate, once scatter has consumed the digits).
fn chunk_bucket_index(w: u32, k: u32) -> u32 {
    return w * params.chunks_per_window + k;
}
