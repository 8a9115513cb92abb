// Requires: nothing beyond WGSL core. The Portable32 multiply: 32x32 -> 64-bit products
// from four 16x16 -> 32-bit products, for adapters without SHADER_INT64.

/// a * b as (low word, high word).
fn mul_wide(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    // mid <= (2^16-1)^2 + 2(2^16-1) < 2^32: no overflow.
    let mid = p01 + (p00 >> 16u) + (p10 & 0xffffu);
    let lo = (mid << 16u) | (p00 & 0xffffu);
    let hi = p11 + (mid >> 16u) + (p10 >> 16u);
    return vec2<u32>(lo, hi);
}

/// a + b * c + d as (low word, high word); never overflows 64 bits.
fn mac(a: u32, b: u32, c: u32, d: u32) -> vec2<u32> {
    let p = mul_wide(b, c);
    let s = p.x + a;
    let c1 = select(0u, 1u, s < a);
    let s2 = s + d;
    let c2 = select(0u, 1u, s2 < s);
    return vec2<u32>(s2, p.y + c1 + c2);
}
