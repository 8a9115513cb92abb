// Requires: curve (Xyzz, xyzz_add), msm_reduce (TREE_LANES). The reduction trees'
// addition with a thread a lane: each lane adds its own pair.

/// Threads a lane of the reduction's trees.
const REDUCE_ROLES: u32 = 1u;
/// Threads of a reduction workgroup.
const REDUCE_THREADS: u32 = TREE_LANES * REDUCE_ROLES;

/// The lane thread t serves.
fn reduce_slot(t: u32) -> u32 {
    return t;
}

/// Thread t's role in its lane's additions (one role here).
fn reduce_role(t: u32) -> u32 {
    return 0u;
}

/// p + q where `adds` (else p); called by every thread of the workgroup.
fn reduce_add(p: Xyzz, q: Xyzz, adds: bool, role: u32, slot: u32) -> Xyzz {
    if (adds) {
        return xyzz_add(p, q);
    }
    return p;
}
