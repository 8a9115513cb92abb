//! The `// @unroll VAR COUNT` ... `// @end` directive: repeats the enclosed lines COUNT
//! times with the identifier VAR replaced by the literal `0u`, `1u`, ... .
//!
//! GPU compilers keep small arrays in registers only when every index is a constant;
//! WGSL has no unroll attribute, so the builder unrolls limb loops itself. COUNT is a
//! number or a limb count name (`LIMBS`, `LIMBS_PLUS_2`, `LIMBS_MINUS_1`). Directives nest.

/// Values of the names COUNT may use.
fn count_of(token: &str, limbs: u32) -> u32 {
    match token {
        "LIMBS" => limbs,
        "LIMBS_PLUS_2" => limbs + 2,
        "LIMBS_MINUS_1" => limbs - 1,
        t => t
            .parse()
            .unwrap_or_else(|_| panic!("@unroll count {t:?} is not a number or LIMBS")),
    }
}

/// Replaces whole-word occurrences of `var` in `line` by `value`.
fn substitute(line: &str, var: &str, value: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let bytes = line.as_bytes();
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < line.len() {
        if line[i..].starts_with(var)
            && (i == 0 || !is_ident(bytes[i - 1]))
            && bytes.get(i + var.len()).is_none_or(|&c| !is_ident(c))
        {
            out.push_str(value);
            i += var.len();
        } else {
            let ch = line[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// How far optional (`@unroll-opt`) blocks are unrolled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Unroll {
    /// Every block unrolled: the most code; on an H200 it compiled 3.4x slower than
    /// `Compact` (71 s against 21 s) and ran within 3% of it (BENCHMARKS.md, v3).
    Full,
    /// `@unroll-opt` blocks stay loops: far less code for the driver to compile.
    #[default]
    Compact,
    /// Every block stays a loop, so limb arrays may be indexed at run time: the least
    /// code. For compilers that unroll small loops themselves and hold the unrolled
    /// form in memory (llvmpipe through GL, see docs/drivers.md).
    Rolled,
}

/// Expands every `@unroll` block of `src` (and `@unroll-opt` blocks per `mode`).
///
/// # Panics
/// On an unterminated block or a bad count: a bug in the shader sources, caught by the
/// CPU validation test.
pub fn expand(src: &str, limbs: u32, mode: Unroll) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    expand_lines(&lines, limbs, mode, &mut out);
    out.join("\n")
}

fn expand_lines(lines: &[&str], limbs: u32, mode: Unroll, out: &mut Vec<String>) {
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim();
        let optional = t.starts_with("// @unroll-opt ");
        let directive = t
            .strip_prefix("// @unroll ")
            .or_else(|| t.strip_prefix("// @unroll-opt "));
        if let Some(rest) = directive {
            let mut it = rest.split_whitespace();
            let var = it.next().expect("@unroll needs a variable");
            let count = count_of(it.next().expect("@unroll needs a count"), limbs);
            // Find the matching @end.
            let mut depth = 1;
            let mut j = i + 1;
            while j < lines.len() {
                let tj = lines[j].trim();
                if tj.starts_with("// @unroll ") || tj.starts_with("// @unroll-opt ") {
                    depth += 1;
                } else if tj == "// @end" {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                j += 1;
            }
            assert!(j < lines.len(), "unterminated @unroll {var}");
            if mode == Unroll::Rolled || (optional && mode == Unroll::Compact) {
                out.push(format!(
                    "for (var {var} = 0u; {var} < {count}u; {var}++) {{"
                ));
                expand_lines(&lines[i + 1..j], limbs, mode, out);
                out.push("}".to_string());
            } else {
                for k in 0..count {
                    let value = format!("{k}u");
                    let body: Vec<String> = lines[i + 1..j]
                        .iter()
                        .map(|l| substitute(l, var, &value))
                        .collect();
                    let body_refs: Vec<&str> = body.iter().map(String::as_str).collect();
                    expand_lines(&body_refs, limbs, mode, out);
                }
            }
            i = j + 1;
        } else {
            out.push(lines[i].to_string());
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_nested_blocks_with_whole_word_substitution() {
        let src = "a\n// @unroll i 2\n// @unroll j 2\nx[i][j] = ij + i;\n// @end\n// @end\nb";
        let out = expand(src, 8, Unroll::Full);
        assert_eq!(out, "a\nx[0u][0u] = ij + 0u;\nx[0u][1u] = ij + 0u;\nx[1u][0u] = ij + 1u;\nx[1u][1u] = ij + 1u;\nb");
        assert_eq!(
            expand("// @unroll k LIMBS\nk\n// @end", 3, Unroll::Full),
            "0u\n1u\n2u"
        );
        let opt = "// @unroll-opt i 2\nx[i];\n// @end";
        assert_eq!(expand(opt, 8, Unroll::Full), "x[0u];\nx[1u];");
        assert_eq!(
            expand(opt, 8, Unroll::Compact),
            "for (var i = 0u; i < 2u; i++) {\nx[i];\n}"
        );
        assert_eq!(
            expand("// @unroll k 2\nx[k];\n// @end", 8, Unroll::Rolled),
            "for (var k = 0u; k < 2u; k++) {\nx[k];\n}"
        );
    }
}
