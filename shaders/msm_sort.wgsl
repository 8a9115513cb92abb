// Requires: msm_bindings. Stages 2 and 3: a counting sort of digits by bucket, per window.

const SCAN_WG: u32 = 256u;
/// Counts per thread in one tile of the scan.
const SCAN_PER: u32 = 8u;
/// Counts a workgroup scans at a time.
const SCAN_TILE: u32 = SCAN_WG * SCAN_PER;
var<workgroup> scan_tmp: array<u32, SCAN_WG>;
/// One tile of counts, one word of padding after every 32 (`scan_pad`).
var<workgroup> scan_tile: array<u32, SCAN_TILE + SCAN_TILE / 32u>;

/// Index in scan_tile of the tile's count i: padded, so that threads reading their
/// SCAN_PER consecutive counts hit different banks.
fn scan_pad(i: u32) -> u32 {
    return i + (i >> 5u);
}

/// Workgroup w: offsets[w*(B+1) + b] = sum of counts[w*B + b'] for b' < b, and
/// offsets[w*(B+1) + B] = the window's total. Also raises counts[W*B] (the largest
/// bucket of the pass, see `fold_steps_needed`) to the largest bucket of window w.
///
/// The counts go through workgroup memory a tile at a time, so that global loads and
/// stores are coalesced (thread j touches word j of each row of SCAN_WG) while each
/// thread sums SCAN_PER consecutive counts.
@compute @workgroup_size(256)
fn scan(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let w = wid.x;
    let nb = params.num_buckets;
    let ob = w * (nb + 1u);
    var carry = 0u;
    var largest = 0u;
    for (var base = 0u; base < nb; base += SCAN_TILE) {
        for (var j = 0u; j < SCAN_PER; j++) {
            let i = j * SCAN_WG + lid;
            var cnt = 0u;
            if (base + i < nb) {
                cnt = atomicLoad(&counts[w * nb + base + i]);
            }
            scan_tile[scan_pad(i)] = cnt;
        }
        workgroupBarrier();
        var local = 0u;
        for (var q = 0u; q < SCAN_PER; q++) {
            let cnt = scan_tile[scan_pad(lid * SCAN_PER + q)];
            local += cnt;
            largest = max(largest, cnt);
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
        carry += scan_tmp[SCAN_WG - 1u];
        workgroupBarrier();
        for (var j = 0u; j < SCAN_PER; j++) {
            let i = j * SCAN_WG + lid;
            if (base + i < nb) {
                offsets[ob + base + i] = scan_tile[scan_pad(i)];
            }
        }
        // The next tile overwrites scan_tile and scan_tmp.
        workgroupBarrier();
    }
    atomicMax(&counts[largest_bucket_index()], largest);
    if (lid == 0u) {
        offsets[ob + nb] = carry;
    }
}

/// Thread i: places point i into its bucket's slot in every window. The counter is
/// consumed downwards, so slots within a bucket are filled in no particular order (the
/// bucket sum does not depend on it).
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
            let slot = atomicSub(&counts[w * nb + b], 1u) - 1u;
            sorted[w * n + offsets[w * (nb + 1u) + b] + slot] = i | (word & SIGN_BIT);
        }
    }
}
