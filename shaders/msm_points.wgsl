// Requires: msm_bindings. XYZZ points in the ${BUF} buffer (a template: `${NAME}` names
// the functions, `${BUF}` the buffer). A point is 32 words (8 vec4s: 16-byte accesses),
// its four coordinates in eight words each, each value < 2p (canonical only where the
// host reads them: the window sums, see msm_reduce.wgsl); fq_unpack / fq_pack_lazy
// convert to and from the registers' limbs.

/// The ${BUF} point at index i (in points).
fn load_${NAME}(i: u32) -> Xyzz {
    let o = POINT_VEC4S * i;
    return Xyzz(
        fq_unpack(big_of(${BUF}[o], ${BUF}[o + 1u])),
        fq_unpack(big_of(${BUF}[o + 2u], ${BUF}[o + 3u])),
        fq_unpack(big_of(${BUF}[o + 4u], ${BUF}[o + 5u])),
        fq_unpack(big_of(${BUF}[o + 6u], ${BUF}[o + 7u]))
    );
}

/// Stores the coordinates' words as ${BUF} point i.
fn store_${NAME}_words(i: u32, x: Big, y: Big, zz: Big, zzz: Big) {
    let o = POINT_VEC4S * i;
    ${BUF}[o] = vec4_of(x, 0u);
    ${BUF}[o + 1u] = vec4_of(x, 1u);
    ${BUF}[o + 2u] = vec4_of(y, 0u);
    ${BUF}[o + 3u] = vec4_of(y, 1u);
    ${BUF}[o + 4u] = vec4_of(zz, 0u);
    ${BUF}[o + 5u] = vec4_of(zz, 1u);
    ${BUF}[o + 6u] = vec4_of(zzz, 0u);
    ${BUF}[o + 7u] = vec4_of(zzz, 1u);
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
