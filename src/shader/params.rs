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
    s += &field_constants::<ark_bn254::FqConfig>("FQ");
    s += &field_constants::<ark_bn254::FrConfig>("FR");
    s += &wgsl_array("CURVE_B", &limbs32(&ark_bn254::g1::Config::COEFF_B.0));
    s
}
