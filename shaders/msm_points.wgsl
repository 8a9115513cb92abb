// Requires: msm_bindings. XYZZ points in the ${BUF} buffer (a template: `${NAME}` names
// the functions, `${BUF}` the buffer). A point is 32 words, its four coordinates
// canonical in memory; fq_unpack / fq_pack convert to and from the registers' limbs.

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

/// Stores p as ${BUF} point i.
fn store_${NAME}(i: u32, p: Xyzz) {
    let o = POINT_WORDS * i;
    let x = fq_pack(p.x);
    let y = fq_pack(p.y);
    let zz = fq_pack(p.zz);
    let zzz = fq_pack(p.zzz);
    // @unroll k LIMBS
        ${BUF}[o + k] = x[k];
        ${BUF}[o + LIMBS + k] = y[k];
        ${BUF}[o + 2u * LIMBS + k] = zz[k];
        ${BUF}[o + 3u * LIMBS + k] = zzz[k];
    // @end
}
