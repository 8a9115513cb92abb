// Requires: msm_bindings. Canonical words into the ${BUF} buffer (a template: `${NAME}`
// names the function, `${BUF}` the buffer), at the start of a point's place, for every
// point layout (msm_points.wgsl, src/shader/points.rs): the reduction's window sums the
// host reads, and msm_points.wgsl's stores.

/// Stores the coordinates' words as ${BUF} point i.
fn store_${NAME}_words(i: u32, x: Big, y: Big, zz: Big, zzz: Big) {
    let o = POINT_VEC4S * i;
    ${STORE:${BUF}:o:0:x}
    ${STORE:${BUF}:o:1:y}
    ${STORE:${BUF}:o:2:zz}
    ${STORE:${BUF}:o:3:zzz}
}
