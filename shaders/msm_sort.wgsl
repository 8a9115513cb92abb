// Requires: msm_bindings. Stages 2 and 3: a counting sort of digits by bucket, per window.

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
    scan_tmp[lid] = local;
    workgroupBarrier();
    for (var off = 1u; off < SCAN_WG; off *= 2u) {
        var v = 0u;
        if (lid >= off) {
            v = scan_tmp[lid - off];
        }
        workgroupBarrier();
        scan_tmp[lid] += v;
        workgroupBarrier();
    }
    // This thread's counts become their exclusive prefix sums, in place.
    var run = carry + scan_tmp[lid] - local;
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

/// Thread i: places point i into its bucket's slot in every window. With params.ranks
/// the slot is the entry's rank, which the decompose stage's count gave it; without,
/// the bucket's counter is consumed downwards. Either way slots within a bucket are in
/// no particular order (the bucket sum does not depend on it).
///
/// Ranks spare the scatter one atomic with a returned value an entry, which pays in
/// small MSMs, where few buckets make thousands of entries contend for each counter; in
/// large ones the decompose stage's returned counts cost what the scatter's cursors do,
/// and the ranks take W*n more words (`Plan::scatter_ranks`).
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
            if (params.ranks != 0u) {
                slot = digits[rank_index(w * n + i)];
            } else {
                slot = atomicSub(&counts[w * nb + b], 1u) - 1u;
            }
            sorted[w * n + offsets[w * (nb + 1u) + b] + slot] = i | (word & SIGN_BIT);
        }
    }
}
