// Requires: msm_bindings. Stages 2 and 3: a counting sort of digits by bucket, per window.

const SCAN_WG: u32 = 256u;
var<workgroup> scan_tmp: array<u32, SCAN_WG>;

/// Workgroup w: offsets[w*(B+1) + b] = sum of counts[w*B + b'] for b' < b, and
/// offsets[w*(B+1) + B] = the window's total. Also raises counts[W*B] (the largest
/// bucket of the pass, see `fold_steps_needed`) to the largest bucket of window w.
@compute @workgroup_size(256)
fn scan(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let w = wid.x;
    let nb = params.num_buckets;
    let per = (nb + SCAN_WG - 1u) / SCAN_WG;
    let start = lid * per;
    var local = 0u;
    var largest = 0u;
    for (var k = 0u; k < per; k++) {
        let b = start + k;
        if (b < nb) {
            let cnt = atomicLoad(&counts[w * nb + b]);
            local += cnt;
            largest = max(largest, cnt);
        }
    }
    atomicMax(&counts[largest_bucket_index()], largest);
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
    var run = scan_tmp[lid] - local;
    let ob = w * (nb + 1u);
    for (var k = 0u; k < per; k++) {
        let b = start + k;
        if (b < nb) {
            offsets[ob + b] = run;
            run += atomicLoad(&counts[w * nb + b]);
        }
    }
    if (lid == SCAN_WG - 1u) {
        offsets[ob + nb] = scan_tmp[lid];
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
