//! The vec4 accesses of a field element in a buffer of `array<vec4<u32>>`, generated for
//! the group's width (a field element is `limbs / 4` vec4s: 2 for BN254, 3 for
//! BLS12-381). Two forms, each naming the buffer, the index of the first vec4 of the
//! value (an expression), and which element `k` of consecutive ones it is:
//! - `${BIG_OF:buf:o:k}` becomes `big_of(buf[o + kQ], .., buf[o + kQ + Q - 1])`;
//! - a line `${STORE:buf:o:k:v}` becomes Q lines `buf[o + kQ + q] = vec4_of(v, q);`
//!   with the line's indentation.

/// `src` with every `${BIG_OF:..}` and `${STORE:..}` expanded for `quads` vec4s an
/// element.
///
/// # Panics
/// On a malformed form (a bug in the shader sources).
pub(crate) fn expand(src: &str, quads: u32) -> String {
    expand_with(src, quads, "big_of", "vec4_of")
}

/// [`expand`] with other functions in place of `big_of` (`of`: the vec4s to the
/// element's words) and `vec4_of` (`vec4`: vec4 q of the element's words): elements of
/// another width (G2's Fq2, `element::fq2_storage`).
///
/// # Panics
/// As [`expand`].
pub(crate) fn expand_with(src: &str, quads: u32, of: &str, vec4: &str) -> String {
    let mut out = String::with_capacity(src.len());
    for line in src.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("${STORE:") {
            let indent = &line[..line.len() - trimmed.len()];
            let args = fields(rest, 4);
            let k: u32 = args[2].parse().expect("${STORE} element index");
            for q in 0..quads {
                out += &format!(
                    "{indent}{}[{}] = {vec4}({}, {q}u);\n",
                    args[0],
                    index(&args[1], k * quads + q),
                    args[3]
                );
            }
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("${BIG_OF:") {
            out += &rest[..at];
            let tail = &rest[at + "${BIG_OF:".len()..];
            let end = tail.find('}').expect("unterminated ${BIG_OF}");
            let args = fields(&tail[..=end], 3);
            let k: u32 = args[2].parse().expect("${BIG_OF} element index");
            let items: Vec<String> = (0..quads)
                .map(|q| format!("{}[{}]", args[0], index(&args[1], k * quads + q)))
                .collect();
            out += &format!("{of}({})", items.join(", "));
            rest = &tail[end + 1..];
        }
        out += rest;
    }
    out
}

/// The `n` colon-separated fields of a form's body up to its closing brace.
fn fields(body: &str, n: usize) -> Vec<String> {
    let end = body.find('}').expect("unterminated form");
    let args: Vec<String> = body[..end].split(':').map(str::to_string).collect();
    assert_eq!(
        args.len(),
        n,
        "form ${{..:{}}} needs {n} fields",
        &body[..end]
    );
    args
}

/// `o + i` as WGSL (`o` alone for 0).
pub(crate) fn index(o: &str, i: u32) -> String {
    if i == 0 {
        o.to_string()
    } else {
        format!("{o} + {i}u")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_expand_per_width() {
        let src = "    x = ${BIG_OF:b:o:1};\n    ${STORE:b:o:0:y}\nend\n";
        assert_eq!(
            expand(src, 2),
            "    x = big_of(b[o + 2u], b[o + 3u]);\n    b[o] = vec4_of(y, 0u);\n    b[o + 1u] = vec4_of(y, 1u);\nend\n"
        );
        assert!(expand(src, 3).contains("big_of(b[o + 3u], b[o + 4u], b[o + 5u])"));
    }
}
