// Requires: msm_bindings. XYZZ points in the ${BUF} buffer (a template: `${NAME}` names
// the functions, `${BUF}` the buffer), as the paths that keep Fq in words or small limbs
// store them (the Wide64 path's G1 points: src/shader/points.rs). A point takes
// POINT_VEC4S vec4s (16-byte accesses), its four coordinates in LIMBS words each from
// its start (the rest unused where POINT_VEC4S > 4 BIG_VEC4S), each value < 2p
// (canonical only where the host reads them: the window sums, see msm_reduce.wgsl);
// fq_unpack / fq_pack_lazy convert to and from the registers' limbs. Requires
// msm_point_words (store_${NAME}_words) for the same buffer.

/// The ${BUF} point at index i (in points).
fn load_${NAME}(i: u32) -> Xyzz {
    let o = POINT_VEC4S * i;
    return Xyzz(
        fq_unpack(${BIG_OF:${BUF}:o:0}),
        fq_unpack(${BIG_OF:${BUF}:o:1}),
        fq_unpack(${BIG_OF:${BUF}:o:2}),
        fq_unpack(${BIG_OF:${BUF}:o:3})
    );
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
