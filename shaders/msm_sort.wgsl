// Requires: msm_bindings. Stages 2 and 3: a counting sort of digits by bucket, per window.
// The scatter takes one of three ways (`plan::ScatterMode`): by ranks, in bins, or by
// atomic cursors.

// Threads of a scan workgroup and the counts each sums per tile, generated from
// `plan::SCAN_WG` and `plan::SCAN_PER`.
const SCAN_WG: u32 = ${SCAN_WG}u;
const SCAN_PER: u32 = ${SCAN_PER}u;
/// Counts one workgroup scans: a tile.
const SCAN_TILE: u32 = SCAN_WG * SCAN_PER;
var<workgroup> scan_tmp: array<u32, SCAN_WG>;
/// One tile of counts, one word of padding after every 32 (`scan_pad`).
var<workgroup> scan_tile: array<u32, SCAN_TILE + SCAN_TILE / 32u>;
/// The largest count of a tile (lane 0 clears it first).
var<workgroup> scan_largest: atomic<u32>;

/// Index in scan_tile of the tile's count i: padded, so that threads reading their
/// SCAN_PER consecutive counts hit different banks.
fn scan_pad(i: u32) -> u32 {
    return i + (i >> 5u);
}

/// Tiles per window, T = ceil(B / SCAN_TILE) (`Plan::scan_tiles` on the host).
fn scan_tiles_per_window() -> u32 {
    return (params.num_buckets + SCAN_TILE - 1u) / SCAN_TILE;
}

/// The window of scan workgroup `wid` (one workgroup per tile, tiles of a window in a row).
fn scan_window_of(wid: vec3<u32>) -> u32 {
    return wid.x / scan_tiles_per_window();
}

/// The tile, within its window, of scan workgroup `wid`.
fn scan_tile_of(wid: vec3<u32>) -> u32 {
    return wid.x % scan_tiles_per_window();
}

/// Index in offsets of the count total of tile t of window w (after the W * (B + 1)
/// offsets).
fn tile_total_index(w: u32, t: u32) -> u32 {
    return params.num_windows * (params.num_buckets + 1u) + w * scan_tiles_per_window() + t;
}

/// The exclusive prefix sum over the lanes of x, through scan_tmp (every lane calls it,
/// in uniform control flow; scan_tmp[SCAN_WG - 1] holds the total afterwards).
fn lane_exclusive_scan(lid: u32, x: u32) -> u32 {
    scan_tmp[lid] = x;
    workgroupBarrier();
    for (var off = 1u; off < SCAN_WG; off <<= 1u) {
        var v = 0u;
        if (lid >= off) {
            v = scan_tmp[lid - off];
        }
        workgroupBarrier();
        scan_tmp[lid] += v;
        workgroupBarrier();
    }
    return scan_tmp[lid] - x;
}

/// The sum of scan_tmp (every lane calls it, with its own index, once the lanes' values
/// are in scan_tmp past a barrier; it leaves the sum in scan_tmp[0]).
fn scan_tmp_total(lid: u32) -> u32 {
    for (var h = SCAN_WG / 2u; h > 0u; h >>= 1u) {
        if (lid < h) {
            scan_tmp[lid] += scan_tmp[lid + h];
        }
        workgroupBarrier();
    }
    return scan_tmp[0];
}

// The scan of each window's counts into offsets runs in two dispatches of one
// workgroup per tile (W * T workgroups, where one workgroup per window walking its
// tiles in turn took 0.06 ms a pass at c = 16 and 0.11 at c = 17 on an H200):
// `scan_tiles` writes each tile's count total, then `scan` gives each tile the sum of
// the tiles before it and scans the tile from there.

/// Workgroup (w, t): the count total of tile t of window w, and the largest count of the
/// pass (counts[W*B], see `fold_steps_needed`) raised to the tile's largest.
@compute @workgroup_size(SCAN_WG)
fn scan_tiles(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let w = scan_window_of(wid);
    let t = scan_tile_of(wid);
    let nb = params.num_buckets;
    // Workgroup memory starts undefined (pipelines skip its zeroing).
    if (lid == 0u) {
        atomicStore(&scan_largest, 0u);
    }
    workgroupBarrier();
    var sum = 0u;
    var largest = 0u;
    for (var j = 0u; j < SCAN_PER; j++) {
        let i = t * SCAN_TILE + j * SCAN_WG + lid;
        if (i < nb) {
            let cnt = atomicLoad(&counts[w * nb + i]);
            sum += cnt;
            largest = max(largest, cnt);
        }
    }
    atomicMax(&scan_largest, largest);
    scan_tmp[lid] = sum;
    workgroupBarrier();
    let total = scan_tmp_total(lid);
    if (lid == 0u) {
        offsets[tile_total_index(w, t)] = total;
        atomicMax(&counts[largest_bucket_index()], atomicLoad(&scan_largest));
    }
}

/// Workgroup (w, t): offsets[w*(B+1) + b] = sum of counts[w*B + b'] for b' < b, for the
/// buckets b of tile t, and (last tile) offsets[w*(B+1) + B] = the window's total.
///
/// The counts go through workgroup memory, so that global loads and stores are
/// coalesced (thread j touches word j of each row of SCAN_WG) while each thread sums
/// SCAN_PER consecutive counts.
@compute @workgroup_size(SCAN_WG)
fn scan(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let w = scan_window_of(wid);
    let t = scan_tile_of(wid);
    let nb = params.num_buckets;
    let ob = w * (nb + 1u);
    let base = t * SCAN_TILE;
    // The counts of the tiles before this one.
    var before = 0u;
    for (var k = lid; k < t; k += SCAN_WG) {
        before += offsets[tile_total_index(w, k)];
    }
    scan_tmp[lid] = before;
    workgroupBarrier();
    let carry = scan_tmp_total(lid);
    for (var j = 0u; j < SCAN_PER; j++) {
        let i = j * SCAN_WG + lid;
        var cnt = 0u;
        if (base + i < nb) {
            cnt = atomicLoad(&counts[w * nb + base + i]);
        }
        scan_tile[scan_pad(i)] = cnt;
    }
    // The tile is in: every lane may read it; and every lane has read the carry out of
    // scan_tmp, which is written next.
    workgroupBarrier();
    var local = 0u;
    for (var q = 0u; q < SCAN_PER; q++) {
        local += scan_tile[scan_pad(lid * SCAN_PER + q)];
    }
    // This thread's counts become their exclusive prefix sums, in place.
    var run = carry + lane_exclusive_scan(lid, local);
    for (var q = 0u; q < SCAN_PER; q++) {
        let at = scan_pad(lid * SCAN_PER + q);
        let cnt = scan_tile[at];
        scan_tile[at] = run;
        run += cnt;
    }
    workgroupBarrier();
    for (var j = 0u; j < SCAN_PER; j++) {
        let i = j * SCAN_WG + lid;
        if (base + i < nb) {
            offsets[ob + base + i] = scan_tile[scan_pad(i)];
        }
    }
    if (t + 1u == scan_tiles_per_window() && lid == SCAN_WG - 1u) {
        offsets[ob + nb] = run;
    }
}

// The scatter in bins (`plan::ScatterMode::Bins`: windows of more buckets than ranks
// serve, rows of up to 2^BIN_SHIFT entries). Fine bins hold BIN_SIZE buckets; coarse
// bins 2^coarse_log2() (at most BIN_MAX of them a window, each at most BIN_MAX fine
// bins). A bin's entries occupy one range of the window row, [offsets[its first
// bucket], offsets[its last bucket + 1]). Each kernel sorts a tile of entries in
// workgroup memory first and then writes it out in order, so that a warp's stores fall
// in a few runs of consecutive words (one store a word where every word goes somewhere
// else costs more than the sort). The kernels wait on memory more than they compute:
// each loads the offsets it reserves from and its next tile's entries before it sorts,
// and more workgroup memory a workgroup (fewer of them at once) costs more than any
// barrier or search it saves (benchmark log v54):
//   scatter_bins   a workgroup per BIN_TILES_WG tiles of BIN_TILE digits of one window,
//                  one tile after another: each tile's entries by coarse bin, each
//                  bin's run at a range of the bin reserved with one atomic on the
//                  counter of its first bucket, into the rank region of the digit
//                  buffer (`rank_index`: free in this mode). Where
//                  coarse bins are fine ones (up to BIN_MAX << BIN_LOG2 buckets) each
//                  entry keeps its bucket within the bin in bits BIN_SHIFT and up;
//                  otherwise the entry is its index and sign, and its bucket goes to
//                  the same place of the sorted row (free until scatter_fine);
//   scatter_mid    (coarse bins wider than fine ones) a workgroup per BIN_TILES_WG tiles
//                  of BIN_TILE of scatter_bins' entries, in turn: each tile's entries by
//                  fine bin, each fine bin's run at a range reserved with one atomic on
//                  the counter of its first bucket, into the digit row (which
//                  scatter_bins consumed), with the bucket within the fine bin in bits
//                  BIN_SHIFT and up;
//   scatter_fine   a workgroup per fine bin, or (scatter_fine_group) per FINE_BINS_WG
//                  of them where bins hold a tile or less on average, walking their
//                  range a tile at a time: the tile's entries by bucket, each bucket's
//                  run at its cursor in the sorted row.

/// log2 of the buckets of a fine bin, BIN_SIZE (`stages::BIN_LOG2`).
const BIN_LOG2: u32 = ${BIN_LOG2}u;
const BIN_SIZE: u32 = 1u << BIN_LOG2;
/// log2 of the most bins one kernel sorts into, BIN_MAX (`stages::BIN_MAX_LOG2`).
const BIN_MAX_LOG2: u32 = ${BIN_MAX_LOG2}u;
const BIN_MAX: u32 = 1u << BIN_MAX_LOG2;
/// Threads of a bin workgroup (at least BIN_MAX and BIN_SIZE: a lane per counter; a
/// scan workgroup's, for `lane_exclusive_scan`) and the entries each takes a tile.
const BIN_WG: u32 = SCAN_WG;
const BIN_PER: u32 = ${BIN_PER}u;
const BIN_TILE: u32 = BIN_WG * BIN_PER;
/// Tiles one workgroup of scatter_bins or scatter_mid takes in turn (`stages::BIN_TILES_WG`).
const BIN_TILES_WG: u32 = ${BIN_TILES_WG}u;
/// Where a binned entry keeps its bucket within the bin: the bits below the sign,
/// above every entry index of a row (`stages::BIN_SHIFT`).
const BIN_SHIFT: u32 = 31u - BIN_LOG2;
const BIN_FINE_MASK: u32 = (BIN_SIZE - 1u) << BIN_SHIFT;
/// scatter_bins' staged word: the entry's place in the tile in the low bits (BIN_TILE
/// is at most 2^16), its bucket within the coarse bin from bit 16 (coarse bins hold at
/// most 2^15 buckets), its sign in SIGN_BIT.
const STAGE_KEY_SHIFT: u32 = 16u;
const STAGE_PLACE_MASK: u32 = (1u << STAGE_KEY_SHIFT) - 1u;
const STAGE_KEY_MASK: u32 = ~SIGN_BIT & ~STAGE_PLACE_MASK;
/// A tile's entries per bin (or bucket): counted, then their exclusive prefix sums.
var<workgroup> bin_count: array<atomic<u32>, BIN_WG>;
var<workgroup> bin_start: array<u32, BIN_WG>;
/// Where each bin's (or bucket's) run of the tile goes in the row.
var<workgroup> bin_dest: array<u32, BIN_WG>;
/// The tile, sorted.
var<workgroup> bin_stage: array<u32, BIN_TILE>;
/// The range of scatter_fine's bins.
var<workgroup> bin_range: vec2<u32>;
/// Where each of scatter_fine's bins after the first starts in the row (index i for bin
/// i; the first starts at bin_range.x).
var<workgroup> fine_bounds: array<u32, FINE_BINS_WG>;

/// Fine bins of a window.
fn bins_per_window() -> u32 {
    return (params.num_buckets + BIN_SIZE - 1u) >> BIN_LOG2;
}

/// Most fine bins a scatter_fine workgroup sorts (a lane per bucket counter).
const FINE_BINS_WG: u32 = BIN_WG >> BIN_LOG2;

/// log2 of the buckets of a coarse bin: BIN_LOG2, or as many more bits as keep the
/// window's coarse bins within BIN_MAX (`stages::coarse_bin_log2`).
fn coarse_log2() -> u32 {
    let bits = firstLeadingBit(max(params.num_buckets, 2u) - 1u) + 1u;
    return max(BIN_LOG2, bits - min(bits, BIN_MAX_LOG2));
}

/// Whether coarse bins are wider than fine ones (scatter_mid runs between the two;
/// `stages::bins_are_nested`).
fn bins_are_nested() -> bool {
    return coarse_log2() > BIN_LOG2;
}

/// Counts the tile's entries per key into bin_count (cleared by the caller) and returns
/// the rank of entry j among those with its key (keys[j] = BIN_WG: no entry).
fn bin_rank(keys: array<u32, BIN_PER>) -> array<u32, BIN_PER> {
    var ranks: array<u32, BIN_PER>;
    for (var j = 0u; j < BIN_PER; j++) {
        if (keys[j] < BIN_WG) {
            ranks[j] = atomicAdd(&bin_count[keys[j]], 1u);
        }
    }
    return ranks;
}

/// The bin of the staged tile's place q: the last whose run starts at or before it (an
/// empty bin after it starts past it).
fn bin_of_place(q: u32) -> u32 {
    var lo = 0u;
    var hi = BIN_WG;
    while (hi - lo > 1u) {
        let mid = (lo + hi) / 2u;
        if (bin_start[mid] <= q) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/// Window and first entry of a workgroup of scatter_bins or scatter_mid: one per
/// BIN_TILES_WG tiles of BIN_TILE entries of each window row (a window past the last:
/// none).
fn bin_tile(wid: vec3<u32>, nwg: vec3<u32>) -> vec2<u32> {
    let tiles = (params.n + BIN_TILE - 1u) / BIN_TILE;
    let groups = (tiles + BIN_TILES_WG - 1u) / BIN_TILES_WG;
    let g = wid.x + wid.y * nwg.x;
    return vec2<u32>(g / groups, (g % groups) * BIN_TILES_WG * BIN_TILE);
}

/// Lane `lid`'s share of the tile at `base` of the digit buffer's words from `src` on,
/// up to `end` (0 past it): scatter_bins' digits of a window row, scatter_fine's binned
/// entries of a fine bin.
fn bin_tile_load(src: u32, base: u32, end: u32, lid: u32) -> array<u32, BIN_PER> {
    var words: array<u32, BIN_PER>;
    for (var j = 0u; j < BIN_PER; j++) {
        let pos = base + j * BIN_WG + lid;
        if (pos < end) {
            words[j] = digits[src + pos];
        }
    }
    return words;
}

/// A tile of scatter_mid's entries as a lane takes them: each entry's bucket (as
/// scatter_bins left it in the sorted row) and its word.
struct MidTile {
    buckets: array<u32, BIN_PER>,
    words: array<u32, BIN_PER>,
}

/// Lane `lid`'s share of the tile of scatter_mid's entries at `base` of window row
/// `row` (every place of the row can be read; the caller uses those before the window's
/// total).
fn mid_tile_load(row: u32, base: u32, lid: u32) -> MidTile {
    var t: MidTile;
    for (var j = 0u; j < BIN_PER; j++) {
        let pos = base + j * BIN_WG + lid;
        if (pos < params.n) {
            t.buckets[j] = sorted[row + pos];
            t.words[j] = digits[rank_index(row + pos)];
        }
    }
    return t;
}

/// Sorts a tile's entries (vals[j] under keys[j]; keys[j] = BIN_WG: no entry) by key
/// into bin_stage: bin_start[k] is where key k's run starts, scan_tmp[SCAN_WG - 1]
/// holds how many were staged, and lane k gets key k's count. Every lane calls it, in
/// uniform control flow, with bin_count cleared past a barrier; the caller puts a
/// barrier between it and reading bin_stage.
fn bin_sort_tile(lid: u32, keys: array<u32, BIN_PER>, vals: array<u32, BIN_PER>) -> u32 {
    let ranks = bin_rank(keys);
    workgroupBarrier();
    let cnt = atomicLoad(&bin_count[lid]);
    bin_start[lid] = lane_exclusive_scan(lid, cnt);
    workgroupBarrier();
    for (var j = 0u; j < BIN_PER; j++) {
        if (keys[j] < BIN_WG) {
            bin_stage[bin_start[keys[j]] + ranks[j]] = vals[j];
        }
    }
    return cnt;
}

/// Workgroup (w, t): tiles t BIN_TILES_WG to (t + 1) BIN_TILES_WG of window w's digits
/// into their coarse bins (see above), one after another, each tile's digits loaded
/// while the one before is sorted.
@compute @workgroup_size(BIN_WG)
fn scatter_bins(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let n = params.n;
    let tile = bin_tile(wid, nwg);
    let w = tile.x;
    if (w >= params.num_windows) {
        return;
    }
    let cl = coarse_log2();
    // Lane k's coarse bin's reservation base (the same for every tile of the window),
    // loaded now so that its latency passes with the first tile's loads rather than
    // after the sort.
    var base = 0u;
    if ((lid << cl) < params.num_buckets) {
        base = reserve_base(w, lid << cl, 0u);
    }
    let nested = cl > BIN_LOG2;
    var next = bin_tile_load(w * n, tile.y, n, lid);
    for (var k = 0u; k < BIN_TILES_WG; k++) {
        let first_entry = tile.y + k * BIN_TILE;
        if (first_entry >= n) {
            break;
        }
        let words = next;
        if (k + 1u < BIN_TILES_WG) {
            next = bin_tile_load(w * n, first_entry + BIN_TILE, n, lid);
        }
        // Past this barrier every lane has written out the tile before.
        atomicStore(&bin_count[lid], 0u);
        workgroupBarrier();
        var vals: array<u32, BIN_PER>;
        var keys: array<u32, BIN_PER>;
        for (var j = 0u; j < BIN_PER; j++) {
            let place = j * BIN_WG + lid;
            let word = words[j];
            let mag = word & ~SIGN_BIT;
            keys[j] = BIN_WG;
            if (mag != 0u) {
                let b = mag - 1u;
                keys[j] = b >> cl;
                let within = b & ((1u << cl) - 1u);
                vals[j] = place | (within << STAGE_KEY_SHIFT) | (word & SIGN_BIT);
            }
        }
        let cnt = bin_sort_tile(lid, keys, vals);
        if (cnt != 0u) {
            // The bin's first bucket's counter: no kernel before this one reserved on it.
            bin_dest[lid] = reserve(w, lid << cl, base, cnt);
        }
        let total = scan_tmp[SCAN_WG - 1u];
        workgroupBarrier();
        for (var q = lid; q < total; q += BIN_WG) {
            let bin = bin_of_place(q);
            let v = bin_stage[q];
            let entry = (first_entry + (v & STAGE_PLACE_MASK)) | (v & SIGN_BIT);
            let within = (v & STAGE_KEY_MASK) >> STAGE_KEY_SHIFT;
            let at = w * n + bin_dest[bin] + q - bin_start[bin];
            if (nested) {
                digits[rank_index(at)] = entry;
                sorted[at] = (bin << cl) | within;
            } else {
                digits[rank_index(at)] = entry | (within << BIN_SHIFT);
            }
        }
    }
}

/// Reserves `count` places in the bin of window `w` that starts at bucket `b`, whose
/// counter holds that bucket's size (the scan read it) plus the places that earlier
/// kernels took on it, and returns the first place's index in the window row: the bin's
/// entries start where bucket b's do, so what the counter held before this add, less
/// the size and those places, is the run's place within the bin. `base` is the bin's
/// `reserve_base`, which a kernel loads before its tile's sort, so that only the atomic
/// waits after it.
fn reserve(w: u32, b: u32, base: u32, count: u32) -> u32 {
    return base + atomicAdd(&counts[w * params.num_buckets + b], count);
}

/// What `reserve` adds the counter's old value to: the bin's first place in the window
/// row less the bucket's size and the `reserved` places earlier kernels took on its
/// counter (modulo 2^32; the sum is the place).
fn reserve_base(w: u32, b: u32, reserved: u32) -> u32 {
    let ob = w * (params.num_buckets + 1u);
    let start = offsets[ob + b];
    return start - (offsets[ob + b + 1u] - start) - reserved;
}

/// Reserves `count` places in fine bin `f` of window `w` for `scatter_mid` (after
/// `scatter_bins`) and returns the first one's index in the window row.
fn reserve_in_fine_bin(w: u32, f: u32, count: u32) -> u32 {
    return reserve(w, f << BIN_LOG2, fine_bin_base(w, f), count);
}

/// `reserve_base` of fine bin `f` of window `w` for `scatter_mid`.
fn fine_bin_base(w: u32, f: u32) -> u32 {
    let nb = params.num_buckets;
    let ob = w * (nb + 1u);
    let first = f << BIN_LOG2;
    // Where the fine bin's first bucket also starts a coarse bin, scatter_bins reserved
    // the whole coarse bin's entries on its counter.
    var reserved = 0u;
    let cl = coarse_log2();
    if ((first & ((1u << cl) - 1u)) == 0u) {
        reserved = offsets[ob + min(first + (1u << cl), nb)] - offsets[ob + first];
    }
    return reserve_base(w, first, reserved);
}

/// The window's entry count (x) and the first fine bin of the coarse bin of each of
/// scatter_mid's tiles' first entries (`mid_heads[1 + k]` for its tile k).
var<workgroup> mid_heads: array<u32, BIN_TILES_WG + 1u>;

/// Workgroup (w, t): tiles t BIN_TILES_WG to (t + 1) BIN_TILES_WG of window w's entries
/// as `scatter_bins` left them (by coarse bin) into their fine bins, one after another,
/// each tile's entries loaded while the one before is sorted. A tile's entries lie in
/// the coarse bin of its first entry or later ones: keyed by fine bin from that coarse
/// bin's first, a key per lane, each fine bin's run at a range reserved with one atomic
/// on the counter of its first bucket. An entry past BIN_WG fine bins (a tile over many
/// sparse coarse bins) reserves its own place.
@compute @workgroup_size(BIN_WG)
fn scatter_mid(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let n = params.n;
    let tile = bin_tile(wid, nwg);
    let w = tile.x;
    if (w >= params.num_windows) {
        return;
    }
    let nb = params.num_buckets;
    let row = w * n;
    let cl = coarse_log2();
    // The first tile's words, loaded before the window's total is known (every place of
    // the row can be read; those past the total are not used), so that their latency
    // passes with the heads' loads.
    var next = mid_tile_load(row, tile.y, lid);
    if (lid == 0u) {
        mid_heads[0] = offsets[w * (nb + 1u) + nb];
    } else if (lid <= BIN_TILES_WG) {
        // Read past the entries where the tile has none.
        let first = min(tile.y + (lid - 1u) * BIN_TILE, n - 1u);
        mid_heads[lid] = (sorted[row + first] >> cl) << (cl - BIN_LOG2);
    }
    let total = workgroupUniformLoad(&mid_heads[0]);
    for (var k = 0u; k < BIN_TILES_WG; k++) {
        let base = tile.y + k * BIN_TILE;
        if (base >= total) {
            break;
        }
        let cur = next;
        if (k + 1u < BIN_TILES_WG) {
            next = mid_tile_load(row, base + BIN_TILE, lid);
        }
        atomicStore(&bin_count[lid], 0u);
        // Past this barrier every lane has written out the tile before.
        let first_fine = workgroupUniformLoad(&mid_heads[1u + k]);
        // The reservation bases of the fine bins of the tile's first two coarse bins
        // (where its entries lie unless coarse bins are smaller than a tile), loaded
        // before the sort; a lane past them loads its own after it.
        let fine_ahead = lid < min(2u << (cl - BIN_LOG2), BIN_WG)
            && first_fine + lid < bins_per_window();
        var fine_base = 0u;
        if (fine_ahead) {
            fine_base = fine_bin_base(w, first_fine + lid);
        }
        var vals: array<u32, BIN_PER>;
        var keys: array<u32, BIN_PER>;
        for (var j = 0u; j < BIN_PER; j++) {
            let pos = base + j * BIN_WG + lid;
            keys[j] = BIN_WG;
            if (pos < total) {
                let b = cur.buckets[j];
                let fine = b >> BIN_LOG2;
                let v = cur.words[j] | ((b & (BIN_SIZE - 1u)) << BIN_SHIFT);
                if (fine - first_fine < BIN_WG) {
                    keys[j] = fine - first_fine;
                    vals[j] = v;
                } else {
                    digits[row + reserve_in_fine_bin(w, fine, 1u)] = v;
                }
            }
        }
        let cnt = bin_sort_tile(lid, keys, vals);
        if (cnt != 0u) {
            let f = first_fine + lid;
            if (!fine_ahead) {
                fine_base = fine_bin_base(w, f);
            }
            bin_dest[lid] = reserve(w, f << BIN_LOG2, fine_base, cnt);
        }
        let staged = scan_tmp[SCAN_WG - 1u];
        workgroupBarrier();
        for (var q = lid; q < staged; q += BIN_WG) {
            let bin = bin_of_place(q);
            digits[row + bin_dest[bin] + q - bin_start[bin]] = bin_stage[q];
        }
    }
}

/// Workgroup (w, h): fine bin h of window w (`scatter_fine`), or bins K h to K (h + 1)
/// with K = FINE_BINS_WG (`scatter_fine_group`, `stages::fine_bins_a_group` picks it),
/// binned by `scatter_bins` (or by `scatter_mid`, into the digit row), into their
/// buckets. The bins' ranges lie one after another in the row, so the workgroup walks
/// them as one range a tile at a time and keys each entry by its bucket among all of
/// the workgroup's (its bin's place among them, read off the bin boundaries, above its
/// bucket within the bin): a lane per bucket counter. A tile costs about the same
/// whether it is full or nearly empty: where fine bins hold less than a tile (wide
/// windows, few entries a bucket) K bins a workgroup make fewer, fuller tiles; where
/// they hold more, one bin a workgroup keeps more workgroups running. Two entry points,
/// so that each compiles with its K a constant and its loops over the bins unroll.
@compute @workgroup_size(BIN_WG)
fn scatter_fine(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    scatter_fine_bins(wid, nwg, lid, 1u);
}

@compute @workgroup_size(BIN_WG)
fn scatter_fine_group(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    scatter_fine_bins(wid, nwg, lid, FINE_BINS_WG);
}

/// The body of both scatter_fine kernels, `k` fine bins a workgroup.
fn scatter_fine_bins(wid: vec3<u32>, nwg: vec3<u32>, lid: u32, k: u32) {
    // Workgroups a window: its fine bins, k a workgroup.
    let groups = (bins_per_window() + k - 1u) / k;
    let g = wid.x + wid.y * nwg.x;
    let w = g / groups;
    if (w >= params.num_windows) {
        return;
    }
    let nb = params.num_buckets;
    let ob = w * (nb + 1u);
    let first = (g % groups) * (k << BIN_LOG2);
    let last = min(first + (k << BIN_LOG2), nb);
    if (lid < last - first) {
        bin_dest[lid] = offsets[ob + first + lid];
    }
    if (lid > 0u && lid < k) {
        // Where bin lid starts in the row (past the last bucket: its end).
        fine_bounds[lid] = offsets[ob + min(first + lid * BIN_SIZE, last)];
    }
    if (lid == 0u) {
        bin_range = vec2<u32>(offsets[ob + first], offsets[ob + last]);
    }
    let range = workgroupUniformLoad(&bin_range);
    let row = w * params.n;
    // The binned entries: in the digit row after scatter_mid, in the rank region after
    // scatter_bins alone.
    var src = rank_index(row);
    if (bins_are_nested()) {
        src = row;
    }
    // Each tile's entries are loaded while the tile before it is sorted and written
    // (`next`), so that a tile waits for its loads only once, at the first.
    var next = bin_tile_load(src, range.x, range.y, lid);
    for (var base = range.x; base < range.y; base += BIN_TILE) {
        let vals = next;
        next = bin_tile_load(src, base + BIN_TILE, range.y, lid);
        atomicStore(&bin_count[lid], 0u);
        workgroupBarrier();
        var keys: array<u32, BIN_PER>;
        for (var j = 0u; j < BIN_PER; j++) {
            let pos = base + j * BIN_WG + lid;
            keys[j] = BIN_WG;
            if (pos < range.y) {
                keys[j] = fine_bin_of(pos, k) * BIN_SIZE + ((vals[j] & BIN_FINE_MASK) >> BIN_SHIFT);
            }
        }
        let cnt = bin_sort_tile(lid, keys, vals);
        workgroupBarrier();
        for (var q = lid; q < min(BIN_TILE, range.y - base); q += BIN_WG) {
            let v = bin_stage[q];
            // The tile is sorted by key: places from bin_start[i * BIN_SIZE] on (the
            // count of keys below bin i's) hold bin i's entries and the later bins'.
            var f = (v & BIN_FINE_MASK) >> BIN_SHIFT;
            for (var i = 1u; i < k; i++) {
                f += select(0u, BIN_SIZE, bin_start[i * BIN_SIZE] <= q);
            }
            sorted[row + bin_dest[f] + q - bin_start[f]] = v & ~BIN_FINE_MASK;
        }
        workgroupBarrier();
        bin_dest[lid] += cnt;
        workgroupBarrier();
    }
}

/// Which of scatter_fine's `k` bins (0 to k - 1) holds row place `pos`.
fn fine_bin_of(pos: u32, k: u32) -> u32 {
    var f = 0u;
    for (var i = 1u; i < k; i++) {
        f += select(0u, 1u, fine_bounds[i] <= pos);
    }
    return f;
}

/// Thread i: places point i into its bucket's slot in every window. With SCATTER_RANKS
/// the slot is the entry's rank, which the decompose stage's count gave it; without,
/// the bucket's counter is consumed downwards. Either way slots within a bucket are in
/// no particular order (the bucket sum does not depend on it).
///
/// Ranks spare the scatter one atomic with a returned value an entry, which pays in
/// small MSMs, where few buckets make thousands of entries contend for each counter; in
/// large ones the decompose stage's returned counts cost what the scatter's cursors do,
/// and the ranks take W*n more words (`plan::ScatterMode`).
@compute @workgroup_size(64)
fn scatter(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = linear_id(gid, nwg);
    let n = params.n;
    if (i >= n) {
        return;
    }
    let nb = params.num_buckets;
    for (var w = 0u; w < params.num_windows; w++) {
        let word = digits[w * n + i];
        let mag = word & ~SIGN_BIT;
        if (mag != 0u) {
            let b = mag - 1u;
            var slot: u32;
            if (params.scatter == SCATTER_RANKS) {
                slot = digits[rank_index(w * n + i)];
            } else {
                slot = atomicSub(&counts[w * nb + b], 1u) - 1u;
            }
            sorted[w * n + offsets[w * (nb + 1u) + b] + slot] = i | (word & SIGN_BIT);
        }
    }
}
