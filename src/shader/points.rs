//! XYZZ points in scratch and totals as the Wide64 path's registers hold them: each
//! coordinate's limbs (29 or 30 bits, `params::radix_bits`) stored as they are, a point `4 n` words (whole vec4s for
//! any limb count `n`), so the accumulation's steps and the stages after it load and
//! store points without converting between words and limbs. The same functions as
//! `shaders/msm_points.wgsl` (which the other paths take: the element's words);
//! `store_..._words` (canonical words for the host: the window sums) comes from
//! `shaders/msm_point_words.wgsl` on every path.

use super::vec4s::index;
use std::fmt::Write as _;

/// The point load and store of buffer `buf`, named for `name` (`load_point` and
/// `store_point` for `("scratch", "point")`), over coordinates of `n` limbs (the `Fq`
/// of the build): `n` vec4s a point (four coordinates of `n` words).
pub(crate) fn limb_points(buf: &str, name: &str, n: u32) -> String {
    let word = |k: u32| format!("v{}.{}", k / 4, ["x", "y", "z", "w"][(k % 4) as usize]);
    let mut s = format!(
        "/// The {buf} point at index i (in points): four coordinates of {n} limbs, as stored.\n\
         fn load_{name}(i: u32) -> Xyzz {{\n    let o = POINT_VEC4S * i;\n"
    );
    for q in 0..n {
        let at = index("o", q);
        let _ = writeln!(s, "    let v{q} = {buf}[{at}];");
    }
    let coords: Vec<String> = (0..4)
        .map(|c| {
            let limbs: Vec<String> = (0..n).map(|j| word(c * n + j)).collect();
            format!("Fq({})", limbs.join(", "))
        })
        .collect();
    let _ = writeln!(s, "    return Xyzz({});\n}}\n", coords.join(", "));
    let _ = writeln!(
        s,
        "/// Stores p as {buf} point i, its limbs as they are (< 2p, each < 2^29: only the\n\
         /// device reads these back).\nfn store_{name}(i: u32, p: Xyzz) {{\n    let o = POINT_VEC4S * i;"
    );
    let field = ["x", "y", "zz", "zzz"];
    let limb = |k: u32| format!("p.{}[{}]", field[(k / n) as usize], k % n);
    for q in 0..n {
        let at = index("o", q);
        let v: Vec<String> = (0..4).map(|i| limb(4 * q + i)).collect();
        let _ = writeln!(s, "    {buf}[{at}] = vec4<u32>({});", v.join(", "));
    }
    s += "}\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_of_nine_limbs_is_nine_vec4s_in_coordinate_order() {
        let s = limb_points("totals", "total", 9);
        assert!(s.contains("let v8 = totals[o + 8u];"));
        assert!(!s.contains("v9"));
        // Limb 8 of x is word 8 (v2.x); y starts at word 9 (v2.y); zzz's last limb is
        // word 35 (v8.w).
        assert!(s.contains(
            "return Xyzz(Fq(v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w, v2.x), Fq(v2.y,"
        ));
        assert!(s.contains("v8.w))"));
        assert!(s.contains("totals[o + 2u] = vec4<u32>(p.x[8], p.y[0], p.y[1], p.y[2]);"));
        assert!(s.contains("totals[o + 8u] = vec4<u32>(p.zzz[5], p.zzz[6], p.zzz[7], p.zzz[8]);"));
    }
}
