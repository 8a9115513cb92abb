// Requires: SHADER_INT64. The Wide64 multiply: one 64-bit product per limb pair,
// kept in registers (Vulkan and DX12 cannot load or store u64, and we never do).

/// a + b * c + d as (low word, high word); never overflows 64 bits.
fn mac(a: u32, b: u32, c: u32, d: u32) -> vec2<u32> {
    let r = u64(a) + u64(b) * u64(c) + u64(d);
    return vec2<u32>(u32(r & 0xfffffffflu), u32(r >> 32u));
}
