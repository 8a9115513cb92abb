//! Curve and field constants for the shaders, computed from the arkworks types so a
//! second curve is a new parameter set rather than new WGSL.

use crate::curve::{FieldSpec, GroupId, GroupSpec};
use ark_ff::{BigInt, BigInteger, MontConfig};
use std::fmt::Write;

/// 32-bit limbs per BN254 field element (its 254-bit fields in 256 bits; other groups:
/// [`GroupSpec::limbs`]).
pub const LIMBS: u32 = 8;

/// 32-bit limbs of a 4 x 64-bit arkworks big integer, least significant first.
pub fn limbs32(b: &BigInt<4>) -> [u32; 8] {
    let mut out = [0u32; 8];
    for (i, w) in b.0.iter().enumerate() {
        out[2 * i] = *w as u32;
        out[2 * i + 1] = (*w >> 32) as u32;
    }
    out
}

fn wgsl_array(name: &str, v: &[u32]) -> String {
    let items: Vec<String> = v.iter().map(|x| format!("0x{x:08x}u")).collect();
    format!("const {name} = Big({});\n", items.join(", "))
}

/// 64-bit limbs as `words` 32-bit words (zero above the limbs), least significant first.
fn words32(v: &[u64], words: u32) -> Vec<u32> {
    let mut out: Vec<u32> = v
        .iter()
        .flat_map(|w| [*w as u32, (*w >> 32) as u32])
        .collect();
    out.resize(words as usize, 0);
    out
}

/// WGSL constants of one Montgomery field: `{C}_P`, `{C}_R`, `{C}_R2`, `{C}_INV`, `{C}_PM2`.
pub fn field_constants<C: MontConfig<4>>(upper: &str) -> String {
    spec_constants(&FieldSpec::of::<C, 4>(), upper, LIMBS)
}

/// [`field_constants`] of a field described by `f`, as big integers of `limbs` words
/// (`f` is Montgomery over that width: see [`FieldSpec::widened`]).
fn spec_constants(f: &FieldSpec, upper: &str, limbs: u32) -> String {
    let pm2 = f.modulus_int() - 2u32;
    let mut s = String::new();
    s += &wgsl_array(&format!("{upper}_P"), &words32(&f.modulus, limbs));
    s += &wgsl_array(&format!("{upper}_R"), &words32(&f.r, limbs));
    s += &wgsl_array(&format!("{upper}_R2"), &words32(&f.r2, limbs));
    s += &wgsl_array(
        &format!("{upper}_PM2"),
        &words32(&pm2.to_u64_digits(), limbs),
    );

    // INV = -p^-1 mod 2^64; its low half is -p^-1 mod 2^32.
    let _ = writeln!(s, "const {upper}_INV: u32 = 0x{:08x}u;", f.inv as u32);
    s
}

/// The BN254 G1 prelude: [`prelude_for`] BN254 G1.
pub fn prelude() -> String {
    prelude_for(GroupId::Bn254G1.spec())
}

/// The prelude of a group: limb count, both fields' constants and the curve
/// coefficient b. Big integers have the base field's width; the scalar field is held
/// in Montgomery form over that width too (its constants widened), and where a scalar
/// has fewer words than that, `fr_from_host` converts an uploaded scalar (arkworks'
/// Montgomery form over its own width) to its canonical value.
///
/// # Panics
/// If the curve has a != 0, which the WGSL formulas assume.
pub fn prelude_for(spec: &GroupSpec) -> String {
    let limbs = spec.limbs();
    assert!(limbs.is_multiple_of(4), "a field element in whole vec4s");
    let mut s = format!(
        "// Generated from arkworks ({}): do not edit.\n",
        spec.source
    );
    let _ = writeln!(
        s,
        "const LIMBS: u32 = {limbs}u;\nconst LIMBS_PLUS_2: u32 = {}u;",
        limbs + 2
    );
    s += "alias Big = array<u32, LIMBS>;\n";
    s += &vec4_helpers(limbs);
    s += &spec_constants(&spec.fq, "FQ", limbs);
    s += &spec_constants(&spec.fr.widened(limbs), "FR", limbs);
    s += &wgsl_array("CURVE_B", &spec.b);
    if spec.fr.words() < limbs {
        s += &fr_from_host(spec, limbs);
    }
    s
}

/// `fr_from_host(v0, v1, ..)`: a scalar as uploaded (arkworks' Montgomery form, R =
/// 2^(32 w) for its w words) to its canonical value, as a big integer of `limbs`
/// words: the Montgomery product with 2^(32 (limbs - w)) mod r takes R off, since the
/// shader's product divides by 2^(32 limbs).
fn fr_from_host(spec: &GroupSpec, limbs: u32) -> String {
    let w = spec.fr.words();
    let r = spec.fr.modulus_int();
    let shift = (num_bigint::BigUint::from(1u32) << (32 * (limbs - w))) % &r;
    let mut s = wgsl_array("FR_HOST_SHIFT", &words32(&shift.to_u64_digits(), limbs));
    let params: Vec<String> = (0..w / 4).map(|q| format!("v{q}: vec4<u32>")).collect();
    let mut words: Vec<String> = (0..w / 4)
        .flat_map(|q| ["x", "y", "z", "w"].map(|c| format!("v{q}.{c}")))
        .collect();
    words.resize(limbs as usize, "0u".into());
    let _ = writeln!(
        s,
        "/// An uploaded scalar ({w} words, Montgomery form over them) to its canonical value.\n\
         fn fr_from_host({}) -> Big {{\n    return fr_mul(Big({}), FR_HOST_SHIFT);\n}}",
        params.join(", "),
        words.join(", ")
    );
    s
}

/// The curve's G2 coefficient b as `fq2_curve_b()` (for the curve formulas over Fq2).
pub fn g2_b(spec: &GroupSpec) -> String {
    let w = spec.limbs() as usize;
    let mut s = wgsl_array("CURVE_B2_C0", &spec.g2_b[..w]);
    s += &wgsl_array("CURVE_B2_C1", &spec.g2_b[w..]);
    s += "/// b of G2 (y^2 = x^3 + b over Fq2).\nfn fq2_curve_b() -> Fq2 {\n    \
          return Fq2(fq_unpack(CURVE_B2_C0), fq_unpack(CURVE_B2_C1));\n}\n";
    s
}

/// How G2's MSM shaders hold an Fq2 element in storage buffers: `Fq2Words`, c0's
/// `LIMBS` words then c1's (`FQ2_VEC4S` vec4s), with `fq2_words_of` / `fq2_vec4_of`
/// (as `big_of` / `vec4_of` for Fq) and the conversions to and from registers:
/// `fq2_unpack`, `fq2_pack` (canonical) and `fq2_pack_lazy` (each coefficient < 2p),
/// made of the Fq ones of the path. Requires fq2.wgsl.
pub fn fq2_storage(spec: &GroupSpec) -> String {
    let limbs = spec.limbs();
    let quads = 2 * limbs / 4;
    let (vecs, from_vecs) = vec4_params(quads);
    let half = |from: u32| -> String {
        (from..from + limbs)
            .map(|i| format!("w[{i}]"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let joined: Vec<String> = ["c0", "c1"]
        .iter()
        .flat_map(|c| (0..limbs).map(move |i| format!("{c}[{i}]")))
        .collect();
    let mut s = format!(
        "/// vec4s of one Fq2 element in a storage buffer (c0's words, then c1's).\n\
         const FQ2_VEC4S: u32 = {quads}u;\n\
         alias Fq2Words = array<u32, {}>;\n\
         fn fq2_words_of({}) -> Fq2Words {{\n    return Fq2Words({});\n}}\n\
         fn fq2_vec4_of(b: Fq2Words, q: u32) -> vec4<u32> {{\n{}    return vec4(0u);\n}}\n",
        2 * limbs,
        vecs,
        from_vecs,
        vec4_arms(quads)
    );
    let _ = write!(
        s,
        "/// The words of c0 and c1 as one element's.\n\
         fn fq2_words(c0: Big, c1: Big) -> Fq2Words {{\n    return Fq2Words({});\n}}\n\
         /// An element's words (each coefficient < 2p) in registers.\n\
         fn fq2_unpack(w: Fq2Words) -> Fq2 {{\n    \
         return Fq2(fq_unpack(Big({})), fq_unpack(Big({})));\n}}\n\
         /// a's canonical words.\n\
         fn fq2_pack(a: Fq2) -> Fq2Words {{\n    \
         return fq2_words(fq_pack(a.c0), fq_pack(a.c1));\n}}\n\
         /// a's words, each coefficient < 2p (for points only the device reads back).\n\
         fn fq2_pack_lazy(a: Fq2) -> Fq2Words {{\n    \
         return fq2_words(fq_pack_lazy(a.c0), fq_pack_lazy(a.c1));\n}}\n",
        joined.join(", "),
        half(0),
        half(limbs)
    );
    s
}

/// The expression of msm_decompose.wgsl that reads scalar `i` to its canonical value.
pub fn scalar_load(spec: &GroupSpec) -> String {
    let w = spec.fr.words();
    if w == spec.limbs() {
        let args: Vec<String> = (0..w / 4)
            .map(|q| match q {
                0 => "scalars[BIG_VEC4S * i]".to_string(),
                q => format!("scalars[BIG_VEC4S * i + {q}u]"),
            })
            .collect();
        return format!("fr_from_mont(big_of({}))", args.join(", "));
    }
    let q = w / 4;
    let args: Vec<String> = (0..q)
        .map(|k| match k {
            0 => format!("scalars[{q}u * i]"),
            k => format!("scalars[{q}u * i + {k}u]"),
        })
        .collect();
    format!("fr_from_host({})", args.join(", "))
}

/// `big_of` and `vec4_of`: a field element's words to and from the `vec4<u32>` that hold
/// them in storage buffers (buffers of points are `array<vec4<u32>>`, so that a GPU
/// moves a point in 16-byte accesses rather than one per word).
fn vec4_helpers(limbs: u32) -> String {
    let quads = limbs / 4;
    let (params, words) = vec4_params(quads);
    let mut s = format!(
        "const BIG_VEC4S: u32 = {quads}u;\n\
         fn big_of({params}) -> Big {{\n    return Big({words});\n}}\n"
    );
    s += &format!(
        "fn vec4_of(b: Big, q: u32) -> vec4<u32> {{\n{}    return vec4(0u);\n}}\n",
        vec4_arms(quads)
    );
    s
}
// The helpers hold a field element in whole vec4s.
const _: () = assert!(LIMBS.is_multiple_of(4));

/// Bits per limb of the radix-2^29 Fq of the Wide64 path (shaders/field29.wgsl), every
/// field but BLS12-381's outside Fq2 ([`radix_bits`]).
pub const RADIX_BITS: u32 = 29;
/// Limbs of that representation (9 x 29 = 261 bits, room for values < 2p).
pub const RADIX_LIMBS: u32 = 9;
// The lazy sums of fq_add (< 4p < 2^256) must fit the limbs.
const _: () = assert!(RADIX_BITS * RADIX_LIMBS >= 257);

/// `RADIX_LIMBS` limbs of `RADIX_BITS` bits of an arkworks big integer (little endian).
pub fn limbs_radix(b: &BigInt<4>) -> Vec<u32> {
    limbs_of(b, RADIX_BITS, RADIX_LIMBS)
}

/// `limbs` limbs of `bits` bits of an arkworks big integer (little endian).
pub fn limbs_of(b: &BigInt<4>, bits: u32, limbs: u32) -> Vec<u32> {
    limbs_of_words(&b.0, bits, limbs)
}

/// `limbs` limbs of `bits` bits of the integer with 64-bit words `b` (little endian).
fn limbs_of_words(b: &[u64], bits: u32, limbs: u32) -> Vec<u32> {
    let mask = (1u64 << bits) - 1;
    (0..limbs)
        .map(|i| {
            let bit = (bits * i) as usize;
            let (w, s) = (bit / 64, bit % 64);
            if w >= b.len() {
                return 0;
            }
            let mut v = b[w] >> s;
            if s + bits as usize > 64 && w + 1 < b.len() {
                v |= b[w + 1] << (64 - s);
            }
            (v & mask) as u32
        })
        .collect()
}

fn wgsl_limbs(name: &str, b: &BigInt<4>, bits: u32, limbs: u32) -> String {
    wgsl_limbs_of(name, &b.0, bits, limbs)
}

fn wgsl_limbs_of(name: &str, b: &[u64], bits: u32, limbs: u32) -> String {
    let items: Vec<String> = limbs_of_words(b, bits, limbs)
        .iter()
        .map(|x| format!("0x{x:08x}u"))
        .collect();
    format!("const {name} = Fq({});\n", items.join(", "))
}

/// Radix-2^29 Fq constants and the generated conversions of BN254; see
/// [`radix_prelude_for`].
pub fn radix_prelude() -> String {
    radix_prelude_for(GroupId::Bn254G1.spec(), RADIX_BITS)
}

/// Bits per limb of the Wide64 path's Fq for a field of `words` 32-bit words, outside
/// Fq2 (`over_fq2` false) or as Fq2's coefficients: 30 for a 381-bit Fq outside Fq2 (13
/// limbs instead of 29 bits' 14: 338 multiply-adds a Montgomery product instead of 392;
/// its columns take one carry pass midway, `field29`), 29 everywhere else (a 256-bit Fq
/// takes nine limbs either way, and Fq2's Karatsuba sums of limbs need the room).
pub fn radix_bits(words: u32, over_fq2: bool) -> u32 {
    if words == 12 && !over_fq2 {
        RADIX_BITS_381
    } else {
        RADIX_BITS
    }
}

/// Bits per limb of the Wide64 path's 381-bit Fq outside Fq2 ([`radix_bits`]).
pub const RADIX_BITS_381: u32 = 30;

/// Limbs of `bits` bits of the Wide64 path's Fq of a group whose big integers have
/// `words` 32-bit words (R = 2^(32 words)): room for lazy sums below 4p < R; 9 for BN254,
/// 13 (30 bits) or 14 (29 bits) for BLS12-381.
pub fn radix_limbs(words: u32, bits: u32) -> u32 {
    (32 * words + 1).div_ceil(bits)
}

/// Radix-2^29 Fq constants and the generated conversions between the memory layout
/// (the group's 32-bit words) and the limbs: `fq_unpack`, `fq_pack` (canonical) and
/// `fq_pack_lazy` (any value < 2p, for points only the device reads back).
pub fn radix_prelude_for(spec: &GroupSpec, bits: u32) -> String {
    let words = spec.limbs();
    let (rb, rl) = (bits, radix_limbs(words, bits));
    let p = spec.fq.modulus_int();
    let big = |v: &num_bigint::BigUint| -> Vec<u64> { v.to_u64_digits() };
    let mut s = format!("alias Fq = array<u32, {rl}>;\n");
    s += &wgsl_limbs_of("FQ_P29", &big(&p), rb, rl);
    s += &wgsl_limbs_of("FQ_2P29", &big(&(&p + &p)), rb, rl);
    s += &wgsl_limbs_of("FQ_ONE29", &spec.fq.r, rb, rl);
    s += &wgsl_limbs_of("FQ_R2_29", &spec.fq.r2, rb, rl);
    s += &conversions_of(rb, rl, words);
    s
}

/// `shaders/field29.wgsl` (or field29_wide.wgsl) with its sizes filled in for big integers of `words` 32-bit
/// words and limbs of `bits` bits: `N` limbs, `N - 1` full Montgomery rounds of `bits`
/// bits and a last one of the rest of 32 words bits.
pub fn field29(template: &str, words: u32, bits: u32) -> String {
    let n = radix_limbs(words, bits);
    let last = 32 * words - (n - 1) * bits;
    assert!(last > 0 && last <= bits, "last round of {last} bits");
    // A column of the interleaved multiply gains two products of < 2^(2 bits) a round
    // over up to n rounds: 2n of 29 bits fit 64 bits, 2n of 30 bits do not, so with 30
    // bits every column passes its carry up once, before round n / 2 + 1 (at most 14
    // products on either side of it).
    let products = 2 * u128::from(n) * ((1u128 << (2 * bits)) - 1);
    let normalize = if products < 1 << 64 {
        String::new()
    } else {
        let mid = n / 2 + 1;
        // The products on either side of the pass, with room for the carries.
        assert!(
            2 * u128::from(mid.max(n - mid)) * ((1u128 << (2 * bits)) - 1) + (1 << 40) < 1 << 64
        );
        let mut s = format!("if (i == {mid}u) {{\n");
        for j in 0..n - 1 {
            s += &format!(
                "            t[{}] += t[{j}] >> {bits}u;\n            t[{j}] &= 0x{:x}lu;\n",
                j + 1,
                (1u64 << bits) - 1
            );
        }
        s + "        }"
    };
    template
        .replace("${NORMALIZE}", &normalize)
        .replace("${B}", &bits.to_string())
        .replace("${N_X2_MINUS_1}", &(2 * n - 1).to_string())
        .replace("${N_MINUS_1}", &(n - 1).to_string())
        .replace("${N_PLUS_1}", &(n + 1).to_string())
        .replace("${N}", &n.to_string())
        .replace("${ROUNDS}", &(n - 1).to_string())
        .replace("${LAST_MASK}", &format!("0x{:x}", (1u32 << last) - 1))
        .replace("${LAST}", &last.to_string())
        .replace("${HIGH}", &(bits - last).to_string())
}

/// Bits per limb of the small-limb Fq of the Portable32 path (src/shader/small.rs):
/// a product of two limbs has 26 bits, so the 60 products a column of its fused
/// Montgomery a b - c d gains fit a u32.
pub const SMALL_BITS: u32 = 13;
/// Limbs of that representation (20 x 13 = 260 bits, room for values < 4p).
pub const SMALL_LIMBS: u32 = 256 / SMALL_BITS + 1;
/// Bits the last Montgomery round of the small-limb multiply reduces (the full rounds
/// reduce `SMALL_BITS` each; together 256, arkworks' R = 2^256).
const SMALL_LAST: u32 = 256 % SMALL_BITS;
// The lazy sums of fq_add (< 4p < 2^256) fit the limbs, the last round is a partial one,
// and a column (three products per round over every round, as fq_mul_sub adds two
// before the reduction's one, plus one carry) fits a u32.
const _: () = assert!(SMALL_BITS * SMALL_LIMBS >= 257 && SMALL_LAST > 0);
const _: () = {
    let product = ((1u64 << SMALL_BITS) - 1) * ((1u64 << SMALL_BITS) - 1);
    assert!(3 * SMALL_LIMBS as u64 * product + (1u64 << (32 - SMALL_BITS)) < 1u64 << 32);
};

/// Small-limb Fq constants and conversions for the Portable32 path, as
/// [`radix_prelude`] for the Wide64 one.
pub fn small_prelude() -> String {
    let (b, n) = (SMALL_BITS, SMALL_LIMBS);
    let p = ark_bn254::FqConfig::MODULUS;
    let mut two_p = p;
    two_p.add_with_carry(&p);
    let mut s = format!("alias Fq = array<u32, {n}>;\n");
    s += &wgsl_limbs("FQ_PS", &p, b, n);
    s += &wgsl_limbs("FQ_2PS", &two_p, b, n);
    s += &wgsl_limbs("FQ_ONES", &ark_bn254::FqConfig::R, b, n);
    s += &wgsl_limbs("FQ_R2S", &ark_bn254::FqConfig::R2, b, n);
    s += &conversions(b, n);
    s
}

/// `fq_unpack`, `fq_pack_lazy` and `fq_pack` between eight 32-bit words and `rl` limbs
/// of `rb` bits.
fn conversions(rb: u32, rl: u32) -> String {
    conversions_of(rb, rl, LIMBS)
}

/// [`conversions`] between `words` 32-bit words and `rl` limbs of `rb` bits.
fn conversions_of(rb: u32, rl: u32, words: u32) -> String {
    let mut s = String::new();
    let mask = (1u32 << rb) - 1;
    // Limb i takes bits [rb*i, rb*i + rb) from the 32-bit words that hold them.
    let unpack: Vec<String> = (0..rl)
        .map(|i| {
            let bit = rb * i;
            let (w, sh) = (bit / 32, bit % 32);
            let mut e = format!("(a[{w}] >> {sh}u)");
            if sh + rb > 32 && w + 1 < words {
                e = format!("({e} | (a[{}] << {}u))", w + 1, 32 - sh);
            }
            format!("{e} & 0x{mask:08x}u")
        })
        .collect();
    let _ = writeln!(
        s,
        "/// Eight 32-bit words (a value < 2^256) as radix-2^{rb} limbs.\nfn fq_unpack(a: Big) -> Fq {{\n    return Fq({});\n}}",
        unpack.join(",\n        ")
    );
    // Word k takes bits [32k, 32k + 32) from the limbs that hold them.
    let pack: Vec<String> = (0..words)
        .map(|k| {
            let bit = 32 * k;
            let (first, sh) = (bit / rb, bit % rb);
            let mut parts = vec![format!("(r[{first}] >> {sh}u)")];
            let mut have = rb - sh;
            let mut l = first + 1;
            while have < 32 && l < rl {
                parts.push(format!("(r[{l}] << {have}u)"));
                have += rb;
                l += 1;
            }
            parts.join(" | ")
        })
        .collect();
    let _ = writeln!(
        s,
        "/// r (< 2p, not reduced further) as eight 32-bit words.\nfn fq_pack_lazy(r: Fq) -> Big {{\n    return Big({});\n}}",
        pack.join(",\n        ")
    );
    s += "/// The canonical value of a (< 2p) as eight 32-bit words.\n\
          fn fq_pack(a: Fq) -> Big {\n    return fq_pack_lazy(fq_canonical(a));\n}\n";
    s
}

/// The parameters `v0: vec4<u32>, ..` of a function taking `quads` vec4s, and their
/// components `v0.x, v0.y, ..` in order, each joined with ", ".
fn vec4_params(quads: u32) -> (String, String) {
    let params: Vec<String> = (0..quads).map(|q| format!("v{q}: vec4<u32>")).collect();
    let words: Vec<String> = (0..quads)
        .flat_map(|q| ["x", "y", "z", "w"].map(|c| format!("v{q}.{c}")))
        .collect();
    (params.join(", "), words.join(", "))
}

/// The body of a `vec4_of`-style function: for each q < `quads`, returns vec4 q of the
/// words `b` when asked for it.
fn vec4_arms(quads: u32) -> String {
    (0..quads)
        .map(|q| {
            let w = 4 * q;
            format!(
                "    if (q == {q}u) {{\n        return vec4(b[{w}], b[{}], b[{}], b[{}]);\n    }}\n",
                w + 1,
                w + 2,
                w + 3
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of radix-2^29 limbs, as four 64-bit words.
    fn from_radix(limbs: &[u32]) -> [u64; 4] {
        let mut out = [0u64; 4];
        for (i, &l) in limbs.iter().enumerate() {
            let bit = RADIX_BITS as usize * i;
            let (w, s) = (bit / 64, bit % 64);
            out[w] |= u64::from(l) << s;
            if s + RADIX_BITS as usize > 64 && w + 1 < 4 {
                out[w + 1] |= u64::from(l) >> (64 - s);
            }
        }
        out
    }

    #[test]
    fn small_limbs_round_trip_and_fit() {
        let (b, n) = (SMALL_BITS, SMALL_LIMBS);
        let p = ark_bn254::FqConfig::MODULUS;
        let mut two_p = p;
        two_p.add_with_carry(&p);
        for v in [p, two_p, ark_bn254::FqConfig::R, ark_bn254::FqConfig::R2] {
            let limbs = limbs_of(&v, b, n);
            assert!(limbs.iter().all(|&l| l < 1 << b), "{limbs:?}");
            let mut back = [0u64; 4];
            for (i, &l) in limbs.iter().enumerate() {
                for k in 0..b as usize {
                    let bit = b as usize * i + k;
                    if (l >> k) & 1 == 1 {
                        back[bit / 64] |= 1 << (bit % 64);
                    }
                }
            }
            assert_eq!(back, v.0);
        }
    }

    #[test]
    fn only_thirty_bit_limbs_carry_midway() {
        let field = include_str!("../../shaders/field29.wgsl");
        // BN254 (8 words): nine 29-bit limbs, no carry pass.
        assert_eq!(radix_bits(8, false), RADIX_BITS);
        assert_eq!(radix_limbs(8, RADIX_BITS), 9);
        assert!(!field29(field, 8, RADIX_BITS).contains("if (i =="));
        // BLS12-381 (12 words): 13 limbs of 30 bits outside Fq2, one pass before round 7;
        // over Fq2 14 limbs of 29 bits.
        assert_eq!(radix_bits(12, false), RADIX_BITS_381);
        assert_eq!(radix_bits(12, true), RADIX_BITS);
        assert_eq!(radix_limbs(12, RADIX_BITS_381), 13);
        assert_eq!(radix_limbs(12, RADIX_BITS), 14);
        let wide = field29(field, 12, RADIX_BITS_381);
        assert_eq!(wide.matches("if (i == 7u)").count(), 1);
        assert_eq!(wide.matches("&= 0x3fffffff").count(), 12);
        assert!(!field29(field, 12, RADIX_BITS).contains("if (i =="));
    }

    #[test]
    fn radix_limbs_round_trip_and_fit() {
        let p = ark_bn254::FqConfig::MODULUS;
        let mut two_p = p;
        two_p.add_with_carry(&p);
        for v in [p, two_p, ark_bn254::FqConfig::R, ark_bn254::FqConfig::R2] {
            let limbs = limbs_radix(&v);
            assert_eq!(limbs.len(), RADIX_LIMBS as usize);
            assert!(limbs.iter().all(|&l| l < 1 << RADIX_BITS), "{limbs:?}");
            assert_eq!(from_radix(&limbs), v.0);
        }
    }
}
