//! The curve formulas (shaders/curve.wgsl, written over Fq) over another element field:
//! every `fq_*` function becomes `{prefix}_*` and the type `Fq` becomes `ty`, so one
//! curve.wgsl serves G1 (over Fq, unchanged) and G2 (over Fq2, whose fq2.wgsl provides
//! the same functions with the same contracts). The coefficient b, read in curve.wgsl
//! as `fq_unpack(CURVE_B)`, becomes `b`.

/// `src` with its Fq identifiers renamed for the element (identifiers are matched
/// whole: `fq_mul` becomes `fq2_mul`, `Fq` becomes `Fq2`, `FqX` or `my_fq_x` stay).
pub(crate) fn over(src: &str, prefix: &str, ty: &str, b: &str) -> String {
    let src = src.replace("fq_unpack(CURVE_B)", b);
    let mut out = String::with_capacity(src.len() + src.len() / 8);
    let mut ident = String::new();
    let flush = |ident: &mut String, out: &mut String| {
        if ident == "Fq" {
            out.push_str(ty);
        } else if let Some(rest) = ident.strip_prefix("fq_") {
            out.push_str(prefix);
            out.push('_');
            out.push_str(rest);
        } else {
            out.push_str(ident);
        }
        ident.clear();
    };
    for ch in src.chars() {
        if ch.is_ascii_alphanumeric() || ch == '_' {
            ident.push(ch);
        } else {
            flush(&mut ident, &mut out);
            out.push(ch);
        }
    }
    flush(&mut ident, &mut out);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn identifiers_are_renamed_whole() {
        let src = "fn f(a: Fq) -> Fq { return fq_add(a, fq_unpack(CURVE_B)) + my_fq_x + FqX; }";
        assert_eq!(
            super::over(src, "fq2", "Fq2", "fq2_curve_b()"),
            "fn f(a: Fq2) -> Fq2 { return fq2_add(a, fq2_curve_b()) + my_fq_x + FqX; }"
        );
    }
}
