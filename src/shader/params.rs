//! Curve and field constants for the shaders, computed from the arkworks types so a
//! second curve is a new parameter set rather than new WGSL.

use ark_ec::short_weierstrass::SWCurveConfig;
use ark_ff::{BigInt, BigInteger, MontConfig, Zero};
use std::fmt::Write;

/// 32-bit limbs per field element (BN254's 254-bit fields in 256 bits).
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

/// WGSL constants of one Montgomery field: `{C}_P`, `{C}_R`, `{C}_R2`, `{C}_INV`, `{C}_PM2`.
pub fn field_constants<C: MontConfig<4>>(upper: &str) -> String {
    let mut pm2 = C::MODULUS;
    pm2.sub_with_borrow(&BigInt::from(2u64));
    let mut s = String::new();
    s += &wgsl_array(&format!("{upper}_P"), &limbs32(&C::MODULUS));
    s += &wgsl_array(&format!("{upper}_R"), &limbs32(&C::R));
    s += &wgsl_array(&format!("{upper}_R2"), &limbs32(&C::R2));
    s += &wgsl_array(&format!("{upper}_PM2"), &limbs32(&pm2));

    // INV = -p^-1 mod 2^64; its low half is -p^-1 mod 2^32.
    let _ = writeln!(s, "const {upper}_INV: u32 = 0x{:08x}u;", C::INV as u32);
    s
}

/// The prelude: limb count, both fields' constants and the curve coefficient b.
///
/// # Panics
/// Never for BN254; asserts the curve has a = 0, which the WGSL formulas assume.
pub fn prelude() -> String {
    assert!(
        ark_bn254::g1::Config::COEFF_A.is_zero(),
        "curve formulas assume a = 0"
    );
    let mut s = String::from("// Generated from arkworks (ark-bn254): do not edit.\n");
    s += "const LIMBS: u32 = 8u;\nconst LIMBS_PLUS_2: u32 = 10u;\n";
    s += "alias Big = array<u32, LIMBS>;\n";
    s += &vec4_helpers(LIMBS);
    s += &field_constants::<ark_bn254::FqConfig>("FQ");
    s += &field_constants::<ark_bn254::FrConfig>("FR");
    s += &wgsl_array("CURVE_B", &limbs32(&ark_bn254::g1::Config::COEFF_B.0));
    s
}

/// `big_of` and `vec4_of`: a field element's words to and from the `vec4<u32>` that hold
/// them in storage buffers (buffers of points are `array<vec4<u32>>`, so that a GPU
/// moves a point in 16-byte accesses rather than one per word).
fn vec4_helpers(limbs: u32) -> String {
    let quads = limbs / 4;
    let params: Vec<String> = (0..quads).map(|q| format!("v{q}: vec4<u32>")).collect();
    let words: Vec<String> = (0..quads)
        .flat_map(|q| ["x", "y", "z", "w"].map(|c| format!("v{q}.{c}")))
        .collect();
    let mut s = format!(
        "const BIG_VEC4S: u32 = {quads}u;\n\
         fn big_of({}) -> Big {{\n    return Big({});\n}}\n",
        params.join(", "),
        words.join(", ")
    );
    let arms: Vec<String> = (0..quads)
        .map(|q| {
            let w = 4 * q;
            format!(
                "    if (q == {q}u) {{\n        return vec4(b[{w}], b[{}], b[{}], b[{}]);\n    }}\n",
                w + 1,
                w + 2,
                w + 3
            )
        })
        .collect();
    s += &format!(
        "fn vec4_of(b: Big, q: u32) -> vec4<u32> {{\n{}    return vec4(0u);\n}}\n",
        arms.join("")
    );
    s
}
// The helpers hold a field element in whole vec4s.
const _: () = assert!(LIMBS.is_multiple_of(4));

/// Bits per limb of the radix-2^29 Fq of the Wide64 path (shaders/field29.wgsl).
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
    let mask = (1u64 << bits) - 1;
    (0..limbs)
        .map(|i| {
            let bit = (bits * i) as usize;
            let (w, s) = (bit / 64, bit % 64);
            if w >= 4 {
                return 0;
            }
            let mut v = b.0[w] >> s;
            if s + bits as usize > 64 && w + 1 < 4 {
                v |= b.0[w + 1] << (64 - s);
            }
            (v & mask) as u32
        })
        .collect()
}

fn wgsl_limbs(name: &str, b: &BigInt<4>, bits: u32, limbs: u32) -> String {
    let items: Vec<String> = limbs_of(b, bits, limbs)
        .iter()
        .map(|x| format!("0x{x:08x}u"))
        .collect();
    format!("const {name} = Fq({});\n", items.join(", "))
}

/// Radix-2^29 Fq constants and the generated conversions between the memory layout
/// (eight 32-bit words) and the limbs: `fq_unpack`, `fq_pack` (canonical) and
/// `fq_pack_lazy` (any value < 2p, for points only the device reads back).
pub fn radix_prelude() -> String {
    let (rb, rl) = (RADIX_BITS, RADIX_LIMBS);
    let p = ark_bn254::FqConfig::MODULUS;
    let mut two_p = p;
    two_p.add_with_carry(&p);
    let mut s = String::from("alias Fq = array<u32, 9>;\n");
    s += &wgsl_limbs("FQ_P29", &p, rb, rl);
    s += &wgsl_limbs("FQ_2P29", &two_p, rb, rl);
    s += &wgsl_limbs("FQ_ONE29", &ark_bn254::FqConfig::R, rb, rl);
    s += &wgsl_limbs("FQ_R2_29", &ark_bn254::FqConfig::R2, rb, rl);
    s += &conversions(rb, rl);
    s
}

/// Bits per limb of the small-limb Fq of the Portable32 path (src/shader/small.rs):
/// a product of two limbs has 26 bits, so the 40 products a column of its Montgomery
/// multiplication gains fit a u32.
pub const SMALL_BITS: u32 = 13;
/// Limbs of that representation (20 x 13 = 260 bits, room for values < 4p).
pub const SMALL_LIMBS: u32 = 256 / SMALL_BITS + 1;
/// Bits the last Montgomery round of the small-limb multiply reduces (the full rounds
/// reduce `SMALL_BITS` each; together 256, arkworks' R = 2^256).
const SMALL_LAST: u32 = 256 % SMALL_BITS;
// The lazy sums of fq_add (< 4p < 2^256) fit the limbs, the last round is a partial one,
// and a column (two products per round over every round, plus one carry) fits a u32.
const _: () = assert!(SMALL_BITS * SMALL_LIMBS >= 257 && SMALL_LAST > 0);
const _: () = {
    let product = ((1u64 << SMALL_BITS) - 1) * ((1u64 << SMALL_BITS) - 1);
    assert!(2 * SMALL_LIMBS as u64 * product + (1u64 << (32 - SMALL_BITS)) < 1u64 << 32);
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
    let mut s = String::new();
    let mask = (1u32 << rb) - 1;
    // Limb i takes bits [rb*i, rb*i + rb) from the 32-bit words that hold them.
    let unpack: Vec<String> = (0..rl)
        .map(|i| {
            let bit = rb * i;
            let (w, sh) = (bit / 32, bit % 32);
            let mut e = format!("(a[{w}] >> {sh}u)");
            if sh + rb > 32 && w + 1 < LIMBS {
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
    let pack: Vec<String> = (0..LIMBS)
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
