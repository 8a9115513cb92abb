@group(0) @binding(0) var<storage, read> tin: array<u32>;
@group(0) @binding(1) var<storage, read_write> tout: array<u32>;
@compute @workgroup_size(64)
fn k_wide(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
    let ya = tin[1024u] | 1u;
    let yb = tin[1025u];
    let fy = f64(tin[1026u]) * 1e-9 + 0.5;
    let fz = f64(tin[1027u]) * 1e-9;
    let sy = f32(tin[1026u]) * 1e-9 + 0.5;
    let sz = f32(tin[1027u]) * 1e-9;
    var w0 = u64(x + 0u) << 20u;
    var w1 = u64(x + 1u) << 20u;
    var w2 = u64(x + 2u) << 20u;
    var w3 = u64(x + 3u) << 20u;
    var w4 = u64(x + 4u) << 20u;
    var w5 = u64(x + 5u) << 20u;
    var w6 = u64(x + 6u) << 20u;
    var w7 = u64(x + 7u) << 20u;
    for (var it = 0u; it < tin[1028u]; it++) {
        w0 += u64(u32(w0)) * u64(ya);
        w1 += u64(u32(w1)) * u64(ya);
        w2 += u64(u32(w2)) * u64(ya);
        w3 += u64(u32(w3)) * u64(ya);
        w4 += u64(u32(w4)) * u64(ya);
        w5 += u64(u32(w5)) * u64(ya);
        w6 += u64(u32(w6)) * u64(ya);
        w7 += u64(u32(w7)) * u64(ya);
    }
    tout[i] = 0u ^ u32(w0 >> 13u) ^ u32(w1 >> 13u) ^ u32(w2 >> 13u) ^ u32(w3 >> 13u) ^ u32(w4 >> 13u) ^ u32(w5 >> 13u) ^ u32(w6 >> 13u) ^ u32(w7 >> 13u);
}
@compute @workgroup_size(64)
fn k_wideadd(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
    let ya = tin[1024u] | 1u;
    let yb = tin[1025u];
    let fy = f64(tin[1026u]) * 1e-9 + 0.5;
    let fz = f64(tin[1027u]) * 1e-9;
    let sy = f32(tin[1026u]) * 1e-9 + 0.5;
    let sz = f32(tin[1027u]) * 1e-9;
    var w0 = u64(x + 0u) << 20u;
    var w1 = u64(x + 1u) << 20u;
    var w2 = u64(x + 2u) << 20u;
    var w3 = u64(x + 3u) << 20u;
    var w4 = u64(x + 4u) << 20u;
    var w5 = u64(x + 5u) << 20u;
    var w6 = u64(x + 6u) << 20u;
    var w7 = u64(x + 7u) << 20u;
    for (var it = 0u; it < tin[1028u]; it++) {
        w0 += u64(w0 >> 32u) * u64(ya) + u64(ya);
        w1 += u64(w1 >> 32u) * u64(ya) + u64(ya);
        w2 += u64(w2 >> 32u) * u64(ya) + u64(ya);
        w3 += u64(w3 >> 32u) * u64(ya) + u64(ya);
        w4 += u64(w4 >> 32u) * u64(ya) + u64(ya);
        w5 += u64(w5 >> 32u) * u64(ya) + u64(ya);
        w6 += u64(w6 >> 32u) * u64(ya) + u64(ya);
        w7 += u64(w7 >> 32u) * u64(ya) + u64(ya);
    }
    tout[i] = 0u ^ u32(w0 >> 13u) ^ u32(w1 >> 13u) ^ u32(w2 >> 13u) ^ u32(w3 >> 13u) ^ u32(w4 >> 13u) ^ u32(w5 >> 13u) ^ u32(w6 >> 13u) ^ u32(w7 >> 13u);
}
@compute @workgroup_size(64)
fn k_mul32(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
    let ya = tin[1024u] | 1u;
    let yb = tin[1025u];
    let fy = f64(tin[1026u]) * 1e-9 + 0.5;
    let fz = f64(tin[1027u]) * 1e-9;
    let sy = f32(tin[1026u]) * 1e-9 + 0.5;
    let sz = f32(tin[1027u]) * 1e-9;
    var m0 = x + 0u;
    var m1 = x + 1u;
    var m2 = x + 2u;
    var m3 = x + 3u;
    var m4 = x + 4u;
    var m5 = x + 5u;
    var m6 = x + 6u;
    var m7 = x + 7u;
    for (var it = 0u; it < tin[1028u]; it++) {
        m0 = m0 * ya + yb;
        m1 = m1 * ya + yb;
        m2 = m2 * ya + yb;
        m3 = m3 * ya + yb;
        m4 = m4 * ya + yb;
        m5 = m5 * ya + yb;
        m6 = m6 * ya + yb;
        m7 = m7 * ya + yb;
    }
    tout[i] = 0u ^ m0 ^ m1 ^ m2 ^ m3 ^ m4 ^ m5 ^ m6 ^ m7;
}
@compute @workgroup_size(64)
fn k_alu(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
    let ya = tin[1024u] | 1u;
    let yb = tin[1025u];
    let fy = f64(tin[1026u]) * 1e-9 + 0.5;
    let fz = f64(tin[1027u]) * 1e-9;
    let sy = f32(tin[1026u]) * 1e-9 + 0.5;
    let sz = f32(tin[1027u]) * 1e-9;
    var a0 = x * 3u;
    var a1 = x * 4u;
    var a2 = x * 5u;
    var a3 = x * 6u;
    var a4 = x * 7u;
    var a5 = x * 8u;
    var a6 = x * 9u;
    var a7 = x * 10u;
    for (var it = 0u; it < tin[1028u]; it++) {
        a0 = (a0 ^ ya) + (a0 >> 3u);
        a1 = (a1 ^ ya) + (a1 >> 3u);
        a2 = (a2 ^ ya) + (a2 >> 3u);
        a3 = (a3 ^ ya) + (a3 >> 3u);
        a4 = (a4 ^ ya) + (a4 >> 3u);
        a5 = (a5 ^ ya) + (a5 >> 3u);
        a6 = (a6 ^ ya) + (a6 >> 3u);
        a7 = (a7 ^ ya) + (a7 >> 3u);
    }
    tout[i] = 0u ^ a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
}
@compute @workgroup_size(64)
fn k_add64(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
    let ya = tin[1024u] | 1u;
    let yb = tin[1025u];
    let fy = f64(tin[1026u]) * 1e-9 + 0.5;
    let fz = f64(tin[1027u]) * 1e-9;
    let sy = f32(tin[1026u]) * 1e-9 + 0.5;
    let sz = f32(tin[1027u]) * 1e-9;
    var d0 = u64(x + 0u) + 1lu;
    var d1 = u64(x + 1u) + 1lu;
    var d2 = u64(x + 2u) + 1lu;
    var d3 = u64(x + 3u) + 1lu;
    var d4 = u64(x + 4u) + 1lu;
    var d5 = u64(x + 5u) + 1lu;
    var d6 = u64(x + 6u) + 1lu;
    var d7 = u64(x + 7u) + 1lu;
    for (var it = 0u; it < tin[1028u]; it++) {
        d0 += d0 >> 7u;
        d1 += d1 >> 7u;
        d2 += d2 >> 7u;
        d3 += d3 >> 7u;
        d4 += d4 >> 7u;
        d5 += d5 >> 7u;
        d6 += d6 >> 7u;
        d7 += d7 >> 7u;
    }
    tout[i] = 0u ^ u32(d0 >> 9u) ^ u32(d1 >> 9u) ^ u32(d2 >> 9u) ^ u32(d3 >> 9u) ^ u32(d4 >> 9u) ^ u32(d5 >> 9u) ^ u32(d6 >> 9u) ^ u32(d7 >> 9u);
}
@compute @workgroup_size(64)
fn k_f64(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
    let ya = tin[1024u] | 1u;
    let yb = tin[1025u];
    let fy = f64(tin[1026u]) * 1e-9 + 0.5;
    let fz = f64(tin[1027u]) * 1e-9;
    let sy = f32(tin[1026u]) * 1e-9 + 0.5;
    let sz = f32(tin[1027u]) * 1e-9;
    var f0 = f64(x + 0u) * 1e-9;
    var f1 = f64(x + 1u) * 1e-9;
    var f2 = f64(x + 2u) * 1e-9;
    var f3 = f64(x + 3u) * 1e-9;
    var f4 = f64(x + 4u) * 1e-9;
    var f5 = f64(x + 5u) * 1e-9;
    var f6 = f64(x + 6u) * 1e-9;
    var f7 = f64(x + 7u) * 1e-9;
    for (var it = 0u; it < tin[1028u]; it++) {
        f0 = fma(f0, fy, fz);
        f1 = fma(f1, fy, fz);
        f2 = fma(f2, fy, fz);
        f3 = fma(f3, fy, fz);
        f4 = fma(f4, fy, fz);
        f5 = fma(f5, fy, fz);
        f6 = fma(f6, fy, fz);
        f7 = fma(f7, fy, fz);
    }
    tout[i] = 0u ^ u32(f0 > 1.0) ^ u32(f1 > 1.0) ^ u32(f2 > 1.0) ^ u32(f3 > 1.0) ^ u32(f4 > 1.0) ^ u32(f5 > 1.0) ^ u32(f6 > 1.0) ^ u32(f7 > 1.0);
}
@compute @workgroup_size(64)
fn k_f32(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
    let ya = tin[1024u] | 1u;
    let yb = tin[1025u];
    let fy = f64(tin[1026u]) * 1e-9 + 0.5;
    let fz = f64(tin[1027u]) * 1e-9;
    let sy = f32(tin[1026u]) * 1e-9 + 0.5;
    let sz = f32(tin[1027u]) * 1e-9;
    var s0 = f32(x + 0u) * 1e-9;
    var s1 = f32(x + 1u) * 1e-9;
    var s2 = f32(x + 2u) * 1e-9;
    var s3 = f32(x + 3u) * 1e-9;
    var s4 = f32(x + 4u) * 1e-9;
    var s5 = f32(x + 5u) * 1e-9;
    var s6 = f32(x + 6u) * 1e-9;
    var s7 = f32(x + 7u) * 1e-9;
    for (var it = 0u; it < tin[1028u]; it++) {
        s0 = fma(s0, sy, sz);
        s1 = fma(s1, sy, sz);
        s2 = fma(s2, sy, sz);
        s3 = fma(s3, sy, sz);
        s4 = fma(s4, sy, sz);
        s5 = fma(s5, sy, sz);
        s6 = fma(s6, sy, sz);
        s7 = fma(s7, sy, sz);
    }
    tout[i] = 0u ^ u32(s0 > 1.0) ^ u32(s1 > 1.0) ^ u32(s2 > 1.0) ^ u32(s3 > 1.0) ^ u32(s4 > 1.0) ^ u32(s5 > 1.0) ^ u32(s6 > 1.0) ^ u32(s7 > 1.0);
}
@compute @workgroup_size(64)
fn k_wide_alu(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
    let ya = tin[1024u] | 1u;
    let yb = tin[1025u];
    let fy = f64(tin[1026u]) * 1e-9 + 0.5;
    let fz = f64(tin[1027u]) * 1e-9;
    let sy = f32(tin[1026u]) * 1e-9 + 0.5;
    let sz = f32(tin[1027u]) * 1e-9;
    var w0 = u64(x + 0u) << 20u;
    var w1 = u64(x + 1u) << 20u;
    var w2 = u64(x + 2u) << 20u;
    var w3 = u64(x + 3u) << 20u;
    var w4 = u64(x + 4u) << 20u;
    var w5 = u64(x + 5u) << 20u;
    var w6 = u64(x + 6u) << 20u;
    var w7 = u64(x + 7u) << 20u;
    var a0 = x * 3u;
    var a1 = x * 4u;
    var a2 = x * 5u;
    var a3 = x * 6u;
    var a4 = x * 7u;
    var a5 = x * 8u;
    var a6 = x * 9u;
    var a7 = x * 10u;
    for (var it = 0u; it < tin[1028u]; it++) {
        w0 += u64(u32(w0)) * u64(ya);
        a0 = (a0 ^ ya) + (a0 >> 3u);
        w1 += u64(u32(w1)) * u64(ya);
        a1 = (a1 ^ ya) + (a1 >> 3u);
        w2 += u64(u32(w2)) * u64(ya);
        a2 = (a2 ^ ya) + (a2 >> 3u);
        w3 += u64(u32(w3)) * u64(ya);
        a3 = (a3 ^ ya) + (a3 >> 3u);
        w4 += u64(u32(w4)) * u64(ya);
        a4 = (a4 ^ ya) + (a4 >> 3u);
        w5 += u64(u32(w5)) * u64(ya);
        a5 = (a5 ^ ya) + (a5 >> 3u);
        w6 += u64(u32(w6)) * u64(ya);
        a6 = (a6 ^ ya) + (a6 >> 3u);
        w7 += u64(u32(w7)) * u64(ya);
        a7 = (a7 ^ ya) + (a7 >> 3u);
    }
    tout[i] = 0u ^ u32(w0 >> 13u) ^ u32(w1 >> 13u) ^ u32(w2 >> 13u) ^ u32(w3 >> 13u) ^ u32(w4 >> 13u) ^ u32(w5 >> 13u) ^ u32(w6 >> 13u) ^ u32(w7 >> 13u) ^ a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
}
@compute @workgroup_size(64)
fn k_wide_add64(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
    let ya = tin[1024u] | 1u;
    let yb = tin[1025u];
    let fy = f64(tin[1026u]) * 1e-9 + 0.5;
    let fz = f64(tin[1027u]) * 1e-9;
    let sy = f32(tin[1026u]) * 1e-9 + 0.5;
    let sz = f32(tin[1027u]) * 1e-9;
    var w0 = u64(x + 0u) << 20u;
    var w1 = u64(x + 1u) << 20u;
    var w2 = u64(x + 2u) << 20u;
    var w3 = u64(x + 3u) << 20u;
    var w4 = u64(x + 4u) << 20u;
    var w5 = u64(x + 5u) << 20u;
    var w6 = u64(x + 6u) << 20u;
    var w7 = u64(x + 7u) << 20u;
    var d0 = u64(x + 0u) + 1lu;
    var d1 = u64(x + 1u) + 1lu;
    var d2 = u64(x + 2u) + 1lu;
    var d3 = u64(x + 3u) + 1lu;
    var d4 = u64(x + 4u) + 1lu;
    var d5 = u64(x + 5u) + 1lu;
    var d6 = u64(x + 6u) + 1lu;
    var d7 = u64(x + 7u) + 1lu;
    for (var it = 0u; it < tin[1028u]; it++) {
        w0 += u64(u32(w0)) * u64(ya);
        d0 += d0 >> 7u;
        w1 += u64(u32(w1)) * u64(ya);
        d1 += d1 >> 7u;
        w2 += u64(u32(w2)) * u64(ya);
        d2 += d2 >> 7u;
        w3 += u64(u32(w3)) * u64(ya);
        d3 += d3 >> 7u;
        w4 += u64(u32(w4)) * u64(ya);
        d4 += d4 >> 7u;
        w5 += u64(u32(w5)) * u64(ya);
        d5 += d5 >> 7u;
        w6 += u64(u32(w6)) * u64(ya);
        d6 += d6 >> 7u;
        w7 += u64(u32(w7)) * u64(ya);
        d7 += d7 >> 7u;
    }
    tout[i] = 0u ^ u32(w0 >> 13u) ^ u32(w1 >> 13u) ^ u32(w2 >> 13u) ^ u32(w3 >> 13u) ^ u32(w4 >> 13u) ^ u32(w5 >> 13u) ^ u32(w6 >> 13u) ^ u32(w7 >> 13u) ^ u32(d0 >> 9u) ^ u32(d1 >> 9u) ^ u32(d2 >> 9u) ^ u32(d3 >> 9u) ^ u32(d4 >> 9u) ^ u32(d5 >> 9u) ^ u32(d6 >> 9u) ^ u32(d7 >> 9u);
}
@compute @workgroup_size(64)
fn k_wide_f64(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
    let ya = tin[1024u] | 1u;
    let yb = tin[1025u];
    let fy = f64(tin[1026u]) * 1e-9 + 0.5;
    let fz = f64(tin[1027u]) * 1e-9;
    let sy = f32(tin[1026u]) * 1e-9 + 0.5;
    let sz = f32(tin[1027u]) * 1e-9;
    var w0 = u64(x + 0u) << 20u;
    var w1 = u64(x + 1u) << 20u;
    var w2 = u64(x + 2u) << 20u;
    var w3 = u64(x + 3u) << 20u;
    var w4 = u64(x + 4u) << 20u;
    var w5 = u64(x + 5u) << 20u;
    var w6 = u64(x + 6u) << 20u;
    var w7 = u64(x + 7u) << 20u;
    var f0 = f64(x + 0u) * 1e-9;
    var f1 = f64(x + 1u) * 1e-9;
    var f2 = f64(x + 2u) * 1e-9;
    var f3 = f64(x + 3u) * 1e-9;
    var f4 = f64(x + 4u) * 1e-9;
    var f5 = f64(x + 5u) * 1e-9;
    var f6 = f64(x + 6u) * 1e-9;
    var f7 = f64(x + 7u) * 1e-9;
    for (var it = 0u; it < tin[1028u]; it++) {
        w0 += u64(u32(w0)) * u64(ya);
        f0 = fma(f0, fy, fz);
        w1 += u64(u32(w1)) * u64(ya);
        f1 = fma(f1, fy, fz);
        w2 += u64(u32(w2)) * u64(ya);
        f2 = fma(f2, fy, fz);
        w3 += u64(u32(w3)) * u64(ya);
        f3 = fma(f3, fy, fz);
        w4 += u64(u32(w4)) * u64(ya);
        f4 = fma(f4, fy, fz);
        w5 += u64(u32(w5)) * u64(ya);
        f5 = fma(f5, fy, fz);
        w6 += u64(u32(w6)) * u64(ya);
        f6 = fma(f6, fy, fz);
        w7 += u64(u32(w7)) * u64(ya);
        f7 = fma(f7, fy, fz);
    }
    tout[i] = 0u ^ u32(w0 >> 13u) ^ u32(w1 >> 13u) ^ u32(w2 >> 13u) ^ u32(w3 >> 13u) ^ u32(w4 >> 13u) ^ u32(w5 >> 13u) ^ u32(w6 >> 13u) ^ u32(w7 >> 13u) ^ u32(f0 > 1.0) ^ u32(f1 > 1.0) ^ u32(f2 > 1.0) ^ u32(f3 > 1.0) ^ u32(f4 > 1.0) ^ u32(f5 > 1.0) ^ u32(f6 > 1.0) ^ u32(f7 > 1.0);
}
@compute @workgroup_size(64)
fn k_wide_f32(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
    let ya = tin[1024u] | 1u;
    let yb = tin[1025u];
    let fy = f64(tin[1026u]) * 1e-9 + 0.5;
    let fz = f64(tin[1027u]) * 1e-9;
    let sy = f32(tin[1026u]) * 1e-9 + 0.5;
    let sz = f32(tin[1027u]) * 1e-9;
    var w0 = u64(x + 0u) << 20u;
    var w1 = u64(x + 1u) << 20u;
    var w2 = u64(x + 2u) << 20u;
    var w3 = u64(x + 3u) << 20u;
    var w4 = u64(x + 4u) << 20u;
    var w5 = u64(x + 5u) << 20u;
    var w6 = u64(x + 6u) << 20u;
    var w7 = u64(x + 7u) << 20u;
    var s0 = f32(x + 0u) * 1e-9;
    var s1 = f32(x + 1u) * 1e-9;
    var s2 = f32(x + 2u) * 1e-9;
    var s3 = f32(x + 3u) * 1e-9;
    var s4 = f32(x + 4u) * 1e-9;
    var s5 = f32(x + 5u) * 1e-9;
    var s6 = f32(x + 6u) * 1e-9;
    var s7 = f32(x + 7u) * 1e-9;
    for (var it = 0u; it < tin[1028u]; it++) {
        w0 += u64(u32(w0)) * u64(ya);
        s0 = fma(s0, sy, sz);
        w1 += u64(u32(w1)) * u64(ya);
        s1 = fma(s1, sy, sz);
        w2 += u64(u32(w2)) * u64(ya);
        s2 = fma(s2, sy, sz);
        w3 += u64(u32(w3)) * u64(ya);
        s3 = fma(s3, sy, sz);
        w4 += u64(u32(w4)) * u64(ya);
        s4 = fma(s4, sy, sz);
        w5 += u64(u32(w5)) * u64(ya);
        s5 = fma(s5, sy, sz);
        w6 += u64(u32(w6)) * u64(ya);
        s6 = fma(s6, sy, sz);
        w7 += u64(u32(w7)) * u64(ya);
        s7 = fma(s7, sy, sz);
    }
    tout[i] = 0u ^ u32(w0 >> 13u) ^ u32(w1 >> 13u) ^ u32(w2 >> 13u) ^ u32(w3 >> 13u) ^ u32(w4 >> 13u) ^ u32(w5 >> 13u) ^ u32(w6 >> 13u) ^ u32(w7 >> 13u) ^ u32(s0 > 1.0) ^ u32(s1 > 1.0) ^ u32(s2 > 1.0) ^ u32(s3 > 1.0) ^ u32(s4 > 1.0) ^ u32(s5 > 1.0) ^ u32(s6 > 1.0) ^ u32(s7 > 1.0);
}
@compute @workgroup_size(64)
fn k_wide_mul32(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    let x = tin[i % 1024u];
