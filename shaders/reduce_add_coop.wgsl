// Requires: curve (Xyzz, xyzz_dbl), Fq with fq_mul_sub, msm_reduce (TREE_LANES). The
// reduction trees' addition shared by four warps a lane.
//
// A round of a reduction tree is one addition on a few warps, at the small sizes whose
// trees are few most of the GPU idle, and a lone warp's addition is its fourteen multiplies one after another. Here each lane's addition
// (add-2008-s, as xyzz_add) is computed by four threads of different warps, a role
// each: every level's independent products are spread over the roles and meet in
// workgroup memory, so the addition takes four multiply latencies instead of about
// fourteen:
//   1: U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1
//   2: PP = H^2, RR = R^2, ZZ1 ZZ2, ZZZ1 ZZZ2            (H = U2 - U1, R = S2 - S1)
//   3: PPP = H PP, Q = U1 PP, ZZ3 = ZZ1 ZZ2 PP
//   4: Y3 = R (Q - X3) - S1 PPP, ZZZ3 = ZZZ1 ZZZ2 PPP      (X3 = RR - PPP - 2Q)
// Roles go by warps of 32 threads, so that a warp's threads take one role and the four
// roles of a lane sit in four warps (four schedulers of an SM on NVIDIA; where a wave
// holds 64 threads, two roles share it and take turns: the sum is the same, only
// slower); a workgroup runs TREE_LANES lanes with 4 TREE_LANES threads. The built source
// has this file only where its trees' points and these products fit the device's
// workgroup memory.

/// Threads a lane of the reduction's trees.
const REDUCE_ROLES: u32 = 4u;
/// Threads of a reduction workgroup.
const REDUCE_THREADS: u32 = TREE_LANES * REDUCE_ROLES;

/// Each level's four products of every lane; levels alternate between the two arrays,
/// so a level's products are written only after every thread has read the level's
/// before last (there is a barrier between).
var<workgroup> coop_odd: array<array<Fq, 4>, TREE_LANES>;
var<workgroup> coop_even: array<array<Fq, 4>, TREE_LANES>;

/// The lane thread t serves: threads 32 r + i of each block of 128 serve lane i of the
/// block's 32, in role r.
fn reduce_slot(t: u32) -> u32 {
    return ((t >> 7u) << 5u) | (t & 31u);
}

/// Thread t's role in its lane's additions (its warp within a block of four).
fn reduce_role(t: u32) -> u32 {
    return (t >> 5u) & 3u;
}

/// p + q where `adds` (else p), handling infinity, p == q and p == -q as xyzz_add; the
/// sum is valid in role 0. Called by every thread of the workgroup (it holds barriers),
/// each with its lane's p and q.
fn reduce_add(p: Xyzz, q: Xyzz, adds: bool, role: u32, slot: u32) -> Xyzz {
    var a = p.x;
    var b = q.zz;
    if (role == 1u) {
        a = q.x;
        b = p.zz;
    } else if (role == 2u) {
        a = p.y;
        b = q.zzz;
    } else if (role == 3u) {
        a = q.y;
        b = p.zzz;
    }
    if (adds) {
        coop_odd[slot][role] = fq_mul(a, b);
    }
    workgroupBarrier();
    let u1 = coop_odd[slot][0];
    let s1 = coop_odd[slot][2];
    let h = fq_sub(coop_odd[slot][1], u1);
    let r = fq_sub(coop_odd[slot][3], s1);
    a = h;
    b = h;
    if (role == 1u) {
        a = r;
        b = r;
    } else if (role == 2u) {
        a = p.zz;
        b = q.zz;
    } else if (role == 3u) {
        a = p.zzz;
        b = q.zzz;
    }
    if (adds) {
        coop_even[slot][role] = fq_mul(a, b);
    }
    workgroupBarrier();
    let pp = coop_even[slot][0];
    let rr = coop_even[slot][1];
    let zzz12 = coop_even[slot][3];
    a = h;
    if (role == 1u) {
        a = u1;
    } else if (role == 2u) {
        a = coop_even[slot][2];
    }
    if (adds && role < 3u) {
        coop_odd[slot][role] = fq_mul(a, pp);
    }
    workgroupBarrier();
    let ppp = coop_odd[slot][0];
    let qq = coop_odd[slot][1];
    let x3 = fq_sub(fq_sub(rr, ppp), fq_double(qq));
    // Role 0: R (Q - X3) - S1 PPP; role 1: ZZZ1 ZZZ2 PPP - 0 * 0.
    var c = s1;
    var d = ppp;
    a = r;
    b = fq_sub(qq, x3);
    if (role == 1u) {
        a = zzz12;
        b = ppp;
        c = Fq();
        d = Fq();
    }
    if (adds && role < 2u) {
        coop_even[slot][role] = fq_mul_sub(a, b, c, d);
    }
    workgroupBarrier();
    if (!adds || xyzz_is_inf(q)) {
        return p;
    }
    if (xyzz_is_inf(p)) {
        return q;
    }
    if (fq_is_zero(h)) {
        if (fq_is_zero(r)) {
            return xyzz_dbl(p);
        }
        return xyzz_zero();
    }
    return Xyzz(x3, coop_even[slot][0], coop_odd[slot][2], coop_even[slot][1]);
}
