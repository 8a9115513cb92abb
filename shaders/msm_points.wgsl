// Requires: msm_bindings. XYZZ points in the ${BUF} buffer (a template: `${NAME}` names
// the functions, `${BUF}` the buffer). A point is 32 words, its four coordinates in
// eight words each, each value < 2p (canonical only where the host reads them: the
// window sums, see msm_reduce.wgsl); fq_unpack / fq_pack_lazy convert to and from the
// registers' limbs.

/// The ${BUF} point at index i (in points).
fn load_${NAME}(i: u32) -> Xyzz {
    var x: Big;
    var y: Big;
    var zz: Big;
    var zzz: Big;
    let o = POINT_WORDS * i;
    // @unroll k LIMBS
        x[k] = ${BUF}[o + k];
        y[k] = ${BUF}[o + LIMBS + k];
        zz[k] = ${BUF}[o + 2u * LIMBS + k];
        zzz[k] = ${BUF}[o + 3u * LIMBS + k];
    // @end
    return Xyzz(fq_unpack(x), fq_unpack(y), fq_unpack(zz), fq_unpack(zzz));
}

/// Stores the coordinates' words as ${BUF} point i.
fn store_${NAME}_words(i: u32, x: Big, y: Big, zz: Big, zzz: Big) {
    let o = POINT_WORDS * i;
    // @unroll k LIMBS
        ${BUF}[o + k] = x[k];
        ${BUF}[o + LIMBS + k] = y[k];
        ${BUF}[o + 2u * LIMBS + k] = zz[k];
        ${BUF}[o + 3u * LIMBS + k] = zzz[k];
    // @end
}

/// Stores p as ${BUF} point i, its coordinates as they are (< 2p, not reduced to
/// canonical form: only the device reads these back).
fn store_${NAME}(i: u32, p: Xyzz) {
    store_${NAME}_words(
        i,
        fq_pack_lazy(p.x),
        fq_pack_lazy(p.y),
        fq_pack_lazy(p.zz),
        fq_pack_lazy(p.zzz)
    );
}
