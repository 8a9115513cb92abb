//! DIAGNOSTIC (not merged): a BN254 Fq Montgomery multiply on f64 fused multiply-adds
//! (five 52-bit limbs, R = 2^260), checked against arkworks and timed beside the
//! crate's Wide64 `fq_mul` on every adapter with SHADER_F64 and SHADER_INT64.
//!
//! Each limb product x*y (|x*y| < 2^104) is split exactly by two FMAs:
//! h = fma(x, y, C) with C = 2^104 (unsigned) or 1.5 * 2^104 (signed m), so h's ulp is
//! 2^52 and bits(h) - bits(C) = round(x*y / 2^52); l = fma(x, y, B - (h - C)) with
//! B = 1.5 * 2^52 is x*y - hi + B in [2^52, 2^53], whose bits minus bits(B) are the
//! signed low part. Both go into 64-bit integer columns; biases are subtracted once.

use ark_ff::{BigInteger, Field, PrimeField, UniformRand};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

type Fq = ark_bn254::Fq;

const M52: u64 = (1 << 52) - 1;
const BITS_C1: u64 = 0x4670_0000_0000_0000; // 2^104
const BITS_C1S: u64 = 0x4678_0000_0000_0000; // 1.5 * 2^104
const BITS_B: u64 = 0x4338_0000_0000_0000; // 1.5 * 2^52

fn limbs52(words: &[u64; 4]) -> [u64; 5] {
    let w = words;
    [
        w[0] & M52,
        ((w[0] >> 52) | (w[1] << 12)) & M52,
        ((w[1] >> 40) | (w[2] << 24)) & M52,
        ((w[2] >> 28) | (w[3] << 36)) & M52,
        w[3] >> 16,
    ]
}

/// The multiply as WGSL, straight-line, generated from p. `opaque`: the split constants
/// are read from `cbuf` at run time (so no compiler folds or reassociates them).
fn funcs(opaque: bool, cbuf: &str, mode: u32) -> String {
    let p = Fq::MODULUS.0;
    let pl = limbs52(&p);
    // n' = -p^-1 mod 2^52
    let mut inv: u64 = 1;
    for _ in 0..7 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(pl[0].wrapping_mul(inv)));
    }
    let nprime = inv.wrapping_neg() & M52;
    assert_eq!(pl[0].wrapping_mul(nprime) & M52, M52 & (u64::MAX)); // p0 * n' = -1 mod 2^52
    let f = |v: u64| format!("{}.0lf", v);
    let mut s = String::new();
    writeln!(s, "const C1: f64 = 20282409603651670423947251286016.0lf;").unwrap();
    writeln!(s, "const C1S: f64 = 30423614405477505635920876929024.0lf;").unwrap();
    writeln!(s, "const B: f64 = 6755399441055744.0lf;").unwrap();
    writeln!(s, "const P52: f64 = 4503599627370496.0lf;").unwrap();
    writeln!(s, "const NP: f64 = {};", f(nprime)).unwrap();
    for (j, v) in pl.iter().enumerate() {
        writeln!(s, "const P{j}: f64 = {};", f(*v)).unwrap();
    }
    // Bias counts per column: lo parts (bits B) and hi parts (bits C1 or C1S).
    let mut bias = [0u64; 10];
    for i in 0..5 {
        for j in 0..5 {
            bias[i + j] = bias[i + j].wrapping_add(BITS_B);
            bias[i + j + 1] = bias[i + j + 1].wrapping_add(BITS_C1);
            bias[i + j] = bias[i + j].wrapping_add(BITS_B);
            bias[i + j + 1] = bias[i + j + 1].wrapping_add(BITS_C1S);
        }
    }
    s.push_str(
        "struct F5 { l0: f64, l1: f64, l2: f64, l3: f64, l4: f64 }\n\
         fn to_f(v: u64) -> f64 { return bitcast<f64>(v | 0x4330000000000000lu) - KP52; }\n\
         fn kload(k: u32) -> f64 { return bitcast<f64>(u64(CBUF[k]) | (u64(CBUF[k + 1u]) << 32u)); }\n"
            .replace("CBUF", cbuf)
            .as_str(),
    );
    if opaque {
        s.push_str("var<private> C1A: f64;\nvar<private> C1B: f64;\nvar<private> C1SA: f64;\nvar<private> C1SB: f64;\nvar<private> KB: f64;\nvar<private> KP52: f64;\n");
        s.push_str("fn kinit() { C1A = kload(4u); C1B = kload(6u); C1SA = kload(8u); C1SB = kload(10u); KB = kload(12u); KP52 = kload(14u); }\n");
    } else {
        s.push_str("const C1A = C1; const C1B = C1; const C1SA = C1S; const C1SB = C1S; const KB = B; const KP52 = P52;\nfn kinit() {}\n");
    }
    s.push_str("fn mulf(a: F5, b: F5) -> F5 {\n");
    for k in 0..10 {
        let mut init = bias[k].wrapping_neg();
        if k >= 5 {
            init = init.wrapping_add(pl[k - 5]);
        }
        writeln!(s, "    var c{k}: u64 = {init}lu;").unwrap();
        if mode > 0 {
            writeln!(s, "    var fl{k}: f64 = 0.0lf; var fh{k}: f64 = 0.0lf;").unwrap();
        }
    }
    // Timing-only variants fold the FP column sums into the integer column here.
    let fold = |s: &mut String, k: usize| {
        if mode >= 1 {
            writeln!(s, "    c{k} += bitcast<u64>(fl{k} + KB);").unwrap();
        }
        if mode >= 2 {
            writeln!(s, "    c{k} += bitcast<u64>(fh{k} + C1A);").unwrap();
        }
    };
    let av = ["a.l0", "a.l1", "a.l2", "a.l3", "a.l4"];
    let bv = ["b.l0", "b.l1", "b.l2", "b.l3", "b.l4"];
    let mut n = 0;
    let mut prod = |s: &mut String, x: &str, y: &str, k: usize, c: &str| {
        if mode == 1 {
            writeln!(s, "    let h{n} = fma({x}, {y}, {c}A); let l{n} = fma({x}, {y}, -(h{n} - {c}B)); fl{k} += l{n}; c{} += bitcast<u64>(h{n});", k + 1).unwrap();
            n += 1;
            return;
        }
        if mode == 2 {
            writeln!(s, "    let h{n} = fma({x}, {y}, {c}A) - {c}B; let l{n} = fma({x}, {y}, -h{n}); fl{k} += l{n}; fh{} += h{n};", k + 1).unwrap();
            n += 1;
            return;
        }
        writeln!(
            s,
            "    let h{n} = fma({x}, {y}, {c}A); let l{n} = fma({x}, {y}, KB - (h{n} - {c}B)); c{k} += bitcast<u64>(l{n}); c{} += bitcast<u64>(h{n});",
            k + 1
        )
        .unwrap();
        n += 1;
    };
    for i in 0..5 {
        for j in 0..5 {
            prod(&mut s, av[i], bv[j], i + j, "C1");
        }
        fold(&mut s, i);
        if i > 0 {
            writeln!(s, "    c{i} += bitcast<u64>(bitcast<i64>(c{}) >> 52u);", i - 1).unwrap();
        }
        // t = column i mod 2^52 before m_i p_0's low part (whose bias is in the init).
        writeln!(s, "    let t{i} = to_f((c{i} + {BITS_B}lu) & 0xffffffffffffflu);").unwrap();
        writeln!(
            s,
            "    let hm{i} = fma(t{i}, NP, C1A); let m{i} = fma(t{i}, NP, -(hm{i} - C1B));"
        )
        .unwrap();
        for j in 0..5 {
            prod(&mut s, &format!("m{i}"), &format!("P{j}"), i + j, "C1S");
        }
    }
    let _ = n;
    for k in 5..10 {
        fold(&mut s, k);
    }
    writeln!(s, "    c5 += bitcast<u64>(bitcast<i64>(c4) >> 52u);").unwrap();
    for k in 5..9 {
        writeln!(s, "    c{} += bitcast<u64>(bitcast<i64>(c{k}) >> 52u);", k + 1).unwrap();
    }
    writeln!(
        s,
        "    return F5(to_f(c5 & 0xffffffffffffflu), to_f(c6 & 0xffffffffffffflu), to_f(c7 & 0xffffffffffffflu), to_f(c8 & 0xffffffffffffflu), to_f(c9));\n}}"
    )
    .unwrap();
    s
}

fn shader(opaque: bool, mode: u32) -> String {
    let mut s = funcs(opaque, "iters", mode);
    s.push_str(
        r#"
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read> iters: array<u32>;
@group(0) @binding(2) var<storage, read_write> outp: array<u32>;

fn load(e: u32) -> F5 {
    var w: array<u64, 4>;
    for (var k = 0u; k < 4u; k++) {
        w[k] = u64(inp[8u * e + 2u * k]) | (u64(inp[8u * e + 2u * k + 1u]) << 32u);
    }
    let m = 0xffffffffffffflu;
    return F5(
        to_f(w[0] & m),
        to_f(((w[0] >> 52u) | (w[1] << 12u)) & m),
        to_f(((w[1] >> 40u) | (w[2] << 24u)) & m),
        to_f(((w[2] >> 28u) | (w[3] << 36u)) & m),
        to_f(w[3] >> 16u));
}

fn store(i: u32, x: F5) {
    let v = array<f64, 5>(x.l0, x.l1, x.l2, x.l3, x.l4);
    for (var k = 0u; k < 5u; k++) {
        let b = bitcast<u64>(v[k] + P52) & 0xffffffffffffflu;
        outp[10u * i + 2u * k] = u32(b & 0xfffffffflu);
        outp[10u * i + 2u * k + 1u] = u32(b >> 32u);
    }
}

@compute @workgroup_size(64)
fn chain(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    if (i >= iters[1]) {
        return;
    }
    let e = i % iters[2];
    kinit();
    var x = load(2u * e);
    let y = load(2u * e + 1u);
    for (var k = 0u; k < iters[0]; k++) {
        x = mulf(x, y);
    }
    store(i, x);
}
"#,
    );
    s
}

fn consts(n_iters: u32, n_threads: u32, distinct: u32, dbg: u32) -> Vec<u32> {
    let mut v = vec![n_iters, n_threads, distinct, dbg];
    for x in [2f64.powi(104), 2f64.powi(104), 1.5 * 2f64.powi(104), 1.5 * 2f64.powi(104), 1.5 * 2f64.powi(52), 2f64.powi(52)] {
        let b = x.to_bits();
        v.push(b as u32);
        v.push((b >> 32) as u32);
    }
    v
}

fn to_words(x: &ark_ff::BigInt<4>) -> [u32; 8] {
    let mut w = [0u32; 8];
    for k in 0..4 {
        w[2 * k] = x.0[k] as u32;
        w[2 * k + 1] = (x.0[k] >> 32) as u32;
    }
    w
}

const MIX: &str = r#"
fn loadf(w0: u32) -> F5 {
    var w: array<u64, 4>;
    for (var k = 0u; k < 4u; k++) {
        w[k] = u64(ta[w0 + 2u * k]) | (u64(ta[w0 + 2u * k + 1u]) << 32u);
    }
    let m = 0xffffffffffffflu;
    return F5(to_f(w[0] & m), to_f(((w[0] >> 52u) | (w[1] << 12u)) & m),
        to_f(((w[1] >> 40u) | (w[2] << 24u)) & m), to_f(((w[2] >> 28u) | (w[3] << 36u)) & m),
        to_f(w[3] >> 16u));
}

@compute @workgroup_size(64)
fn mix_int(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    if (16u * i >= arrayLength(&ta)) {
        return;
    }
    var x = fq_unpack(ta_big(2u * i, LIMBS));
    let y = fq_unpack(ta_big(2u * i + 1u, LIMBS));
    for (var k = 0u; k < tb[0]; k++) {
        x = fq_mul(x, y);
    }
    tout[i] = x[0] ^ x[7];
}

@compute @workgroup_size(64)
fn mix_f64(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    if (16u * i >= arrayLength(&ta)) {
        return;
    }
    kinit();
    var xf = loadf(16u * i);
    let yf = loadf(16u * i + 8u);
    for (var k = 0u; k < tb[0]; k++) {
        xf = mulf(xf, yf);
    }
    tout[i] = u32(bitcast<u64>(xf.l0) & 0xfffffffflu) ^ u32(bitcast<u64>(xf.l4) & 0xfffffffflu);
}

@compute @workgroup_size(64)
fn mix_both(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = g.x + g.y * nwg.x * 64u;
    if (16u * i >= arrayLength(&ta)) {
        return;
    }
    kinit();
    var x = fq_unpack(ta_big(2u * i, LIMBS));
    let y = fq_unpack(ta_big(2u * i + 1u, LIMBS));
    var xf = loadf(16u * i);
    let yf = loadf(16u * i + 8u);
    for (var k = 0u; k < tb[0]; k++) {
        x = fq_mul(x, y);
        xf = mulf(xf, yf);
    }
    tout[i] = x[0] ^ x[7] ^ u32(bitcast<u64>(xf.l0) & 0xfffffffflu) ^ u32(bitcast<u64>(xf.l4) & 0xfffffffflu);
}
"#;

/// The crate's Wide64 multiply, the f64 one and both in one loop, same kernel shape.
fn mix(device: &wgpu::Device, queue: &wgpu::Queue, elems: &[num_bigint::BigUint], threads: u32, iters: u32) {
    use wgpu::util::DeviceExt;
    let mut src = wgpu_msm::shader::source(
        wgpu_msm::shader::ShaderKind::BenchArith,
        wgpu_msm::MulPath::Wide64,
    );
    src.push_str(&funcs(true, "tb", 0));
    src.push_str(MIX);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("mix"),
        source: wgpu::ShaderSource::Wgsl(src.into()),
    });
    let distinct = elems.len() / 2;
    let mut input: Vec<u32> = Vec::with_capacity(16 * threads as usize);
    for t in 0..threads as usize {
        for v in [&elems[2 * (t % distinct)], &elems[2 * (t % distinct) + 1]] {
            // below p for the integer path's unpack
            let v = v % num_bigint::BigUint::from_bytes_le(&Fq::MODULUS.to_bytes_le());
            let mut bytes = v.to_bytes_le();
            bytes.resize(32, 0);
            for c in bytes.chunks(4) {
                input.push(u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
            }
        }
    }
    let ta = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&input),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let tb = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&consts(iters, threads, distinct as u32, 0)),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let tout = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 4 * u64::from(threads),
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    for (entry, per) in [("mix_int", 1.0), ("mix_f64", 1.0), ("mix_both", 2.0), ("mix_int", 1.0), ("mix_f64", 1.0), ("mix_both", 2.0)] {
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout: None,
            module: &module,
            entry_point: Some(entry),
            compilation_options: Default::default(),
            cache: None,
        });
        let bg = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: ta.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: tb.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 2, resource: tout.as_entire_binding() },
            ],
        });
        let mut best = Duration::MAX;
        for rep in 0..4 {
            let mut enc = device.create_command_encoder(&Default::default());
            {
                let mut pass = enc.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bg, &[]);
                let groups = threads.div_ceil(64);
                let (x, y) = if groups > 65535 { (32768, groups.div_ceil(32768)) } else { (groups, 1) };
                pass.dispatch_workgroups(x, y, 1);
            }
            let t = Instant::now();
            queue.submit([enc.finish()]);
            device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
            if rep > 0 {
                best = best.min(t.elapsed());
            }
        }
        println!(
            "mix {entry}: {:.3} G Fq mul/s ({:?} for {} threads x {} iters)",
            per * f64::from(threads) * f64::from(iters) / best.as_secs_f64() / 1e9,
            best,
            threads,
            iters
        );
    }
}

fn big_from_limbs(l: &[u64]) -> num_bigint::BigUint {
    let mut v = num_bigint::BigUint::from(0u32);
    for (k, x) in l.iter().enumerate() {
        v += num_bigint::BigUint::from(*x) << (52 * k);
    }
    v
}

fn main() {
    let threads: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1 << 18);
    let iters: u32 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(4096);
    if std::env::var_os("F64_DIAG_PRINT").is_some() {
        println!("{}", shader(true, std::env::var("F64_DIAG_PRINT").unwrap().parse().unwrap_or(0)));
    }
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    let p_big = num_bigint::BigUint::from_bytes_le(&Fq::MODULUS.to_bytes_le());
    let rinv = {
        // 2^-260 mod p
        let r = Fq::from(2u64).pow([260u64]);
        r.inverse().unwrap()
    };
    // Inputs: random, plus edges (0, 1, p - 1, 2p - 1, 2^256 - 1).
    let mut rng = ark_std::test_rng();
    let distinct = 1024usize;
    let mut elems: Vec<num_bigint::BigUint> = Vec::new();
    let two256 = num_bigint::BigUint::from(1u32) << 256;
    let edges = [
        num_bigint::BigUint::from(0u32),
        num_bigint::BigUint::from(1u32),
        &p_big - 1u32,
        &p_big * 2u32 - 1u32,
        &two256 - 1u32,
        &p_big * 2u32 + 12345u32,
    ];
    for k in 0..2 * distinct {
        let v = if k < 2 * edges.len() {
            edges[k % edges.len()].clone() * if k >= edges.len() { 1u32 } else { 1u32 }
        } else {
            let x = Fq::rand(&mut rng);
            num_bigint::BigUint::from_bytes_le(&x.into_bigint().to_bytes_le())
        };
        elems.push(v);
    }
    // pair edges across: (e_i, e_j) for a few j
    for k in 0..edges.len() {
        elems[2 * (distinct - 1 - k) + 1] = edges[(k + 3) % edges.len()].clone();
        elems[2 * (distinct - 1 - k)] = edges[k].clone();
    }
    let mut input: Vec<u32> = Vec::new();
    for v in &elems {
        let mut bytes = v.to_bytes_le();
        bytes.resize(32, 0);
        for c in bytes.chunks(4) {
            input.push(u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        }
    }
    let _ = to_words;
    {
        let mut bad = 0;
        for e in 0..distinct {
            let fl = |v: &num_bigint::BigUint| -> [f64; 5] {
                let d = v.to_u64_digits();
                let mut w = [0u64; 4];
                for (k, x) in d.iter().enumerate() { w[k] = *x; }
                limbs52(&w).map(|x| x as f64)
            };
            let r = mulf_cpu(fl(&elems[2 * e]), fl(&elems[2 * e + 1]));
            let got = big_from_limbs(&r);
            let want = Fq::from(elems[2 * e].clone()) * Fq::from(elems[2 * e + 1].clone()) * rinv;
            let want_big = num_bigint::BigUint::from_bytes_le(&want.into_bigint().to_bytes_le());
            if &got % &p_big != want_big || got >= &p_big * 2u32 {
                if bad < 3 { println!("cpu mismatch e={e}: got {got:x} want {want_big:x}"); }
                bad += 1;
            }
        }
        println!("cpu emulation: {bad} of {distinct} wrong");
    }
    for adapter in adapters {
        let info = adapter.get_info();
        let need = wgpu::Features::SHADER_F64 | wgpu::Features::SHADER_INT64;
        if !adapter.features().contains(need) {
            println!("{} ({:?}): no SHADER_F64/INT64, skipped", info.name, info.backend);
            continue;
        }
        if info.backend != wgpu::Backend::Vulkan {
            continue;
        }
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: None,
            required_features: need,
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .expect("device");
        for (opaque, mode) in [(true, 0), (true, 1), (true, 2), (true, 0)] {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("f64"),
                source: wgpu::ShaderSource::Wgsl(shader(opaque, mode).into()),
            });
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some("chain"),
                layout: None,
                module: &module,
                entry_point: Some("chain"),
                compilation_options: Default::default(),
                cache: None,
            });
            use wgpu::util::DeviceExt;
            let inb = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: bytemuck::cast_slice(&input),
                usage: wgpu::BufferUsages::STORAGE,
            });
            let run_d = |n_threads: u32, n_iters: u32, dbg: u32| -> (Vec<u32>, Duration) {
                let itb = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: None,
                    contents: bytemuck::cast_slice(&consts(n_iters, n_threads, distinct as u32, dbg)),
                    usage: wgpu::BufferUsages::STORAGE,
                });
                let size = 80 * u64::from(n_threads);
                let out = device.create_buffer(&wgpu::BufferDescriptor {
                    label: None,
                    size,
                    usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                });
                let rb = device.create_buffer(&wgpu::BufferDescriptor {
                    label: None,
                    size,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                let bg = device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: None,
                    layout: &pipeline.get_bind_group_layout(0),
                    entries: &[
                        wgpu::BindGroupEntry { binding: 0, resource: inb.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 1, resource: itb.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 2, resource: out.as_entire_binding() },
                    ],
                });
                let mut enc = device.create_command_encoder(&Default::default());
                {
                    let mut pass = enc.begin_compute_pass(&Default::default());
                    pass.set_pipeline(&pipeline);
                    pass.set_bind_group(0, &bg, &[]);
                    let groups = n_threads.div_ceil(64);
                    let (x, y) = if groups > 65535 {
                        (32768, groups.div_ceil(32768))
                    } else {
                        (groups, 1)
                    };
                    pass.dispatch_workgroups(x, y, 1);
                }
                enc.copy_buffer_to_buffer(&out, 0, &rb, 0, size);
                let t = Instant::now();
                queue.submit([enc.finish()]);
                device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
                let el = t.elapsed();
                rb.slice(..).map_async(wgpu::MapMode::Read, |_| {});
                device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
                let v = bytemuck::cast_slice(&rb.slice(..).get_mapped_range().unwrap()).to_vec();
                (v, el)
            };
            let run = |a: u32, b: u32| run_d(a, b, 0);
            // Correctness: 1 and 5 multiplies for each distinct pair.
            let mut bad = 0usize;
            for it in [1u32, 5] {
                let (out, _) = run(distinct as u32, it);
                for e in 0..distinct {
                    let limbs: Vec<u64> = (0..5)
                        .map(|k| u64::from(out[10 * e + 2 * k]) | (u64::from(out[10 * e + 2 * k + 1]) << 32))
                        .collect();
                    let got = big_from_limbs(&limbs);
                    let a = Fq::from(elems[2 * e].clone());
                    let b = Fq::from(elems[2 * e + 1].clone());
                    let mut want = a;
                    for _ in 0..it {
                        want = want * b * rinv;
                    }
                    let want_big = num_bigint::BigUint::from_bytes_le(&want.into_bigint().to_bytes_le());
                    let ok = &got % &p_big == want_big && got < &p_big * 2u32;
                    if !ok {
                        if bad < 5 {
                            println!("  mismatch e={e} iters={it}: got {got:x} want {want_big:x}");
                        }
                        bad += 1;
                    }
                }
            }
            println!(
                "{} ({:?}) opaque={opaque} mode={mode}: f64 multiply {} of {} checks wrong",
                info.name,
                info.backend,
                bad,
                2 * distinct
            );
            // Throughput.
            run(threads, iters);
            let mut best = Duration::MAX;
            for _ in 0..3 {
                best = best.min(run(threads, iters).1);
            }
            let gs = f64::from(threads) * f64::from(iters) / best.as_secs_f64() / 1e9;
            println!(
                "{} ({:?}) opaque={opaque} mode={mode}: f64 Fq mul {:.3} G/s ({} threads x {} iters, best {:?})",
                info.name, info.backend, gs, threads, iters, best
            );
        }
        mix(&device, &queue, &elems, threads, iters);
    }
    // The crate's multiplies on the same devices, same shape.
    if let Ok(devs) = wgpu_msm::Device::all() {
        use wgpu_msm::throughput::{measure, ArithOp};
        for d in &devs {
            for path in [wgpu_msm::MulPath::Wide64, wgpu_msm::MulPath::Portable32] {
                if path == wgpu_msm::MulPath::Wide64 && !d.info().shader_int64 {
                    continue;
                }
                for op in [ArithOp::FqMul, ArithOp::Madd] {
                    match measure(d, path, op, threads, iters, 3) {
                        Ok(r) => println!("{} {}: {:?} {:.3} G/s", d.name(), path.name(), op, r / 1e9),
                        Err(e) => println!("{} {}: {:?} error {e}", d.name(), path.name(), op),
                    }
                }
            }
        }
    }
}

/// The same multiply on the CPU (f64::mul_add is a fused multiply-add), to check the
/// algorithm apart from any driver.
#[allow(dead_code)]
fn mulf_cpu(a: [f64; 5], b: [f64; 5]) -> [u64; 5] {
    let p = limbs52(&Fq::MODULUS.0);
    let mut inv: u64 = 1;
    for _ in 0..7 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(p[0].wrapping_mul(inv)));
    }
    let np = (inv.wrapping_neg() & M52) as f64;
    let c1 = 2f64.powi(104);
    let c1s = 1.5 * 2f64.powi(104);
    let bb = 1.5 * 2f64.powi(52);
    let mut c = [0u64; 10];
    let mut bias = [0u64; 10];
    let mut prod = |c: &mut [u64; 10], bias: &mut [u64; 10], x: f64, y: f64, k: usize, cc: f64| {
        let h = x.mul_add(y, cc);
        let l = x.mul_add(y, bb - (h - cc));
        c[k] = c[k].wrapping_add(l.to_bits());
        c[k + 1] = c[k + 1].wrapping_add(h.to_bits());
        bias[k] = bias[k].wrapping_add(BITS_B);
        bias[k + 1] = bias[k + 1].wrapping_add(cc.to_bits());
    };
    let to_f = |v: u64| f64::from_bits(v | 0x4330_0000_0000_0000) - 2f64.powi(52);
    let pf: Vec<f64> = p.iter().map(|&v| v as f64).collect();
    for i in 0..5 {
        for j in 0..5 {
            prod(&mut c, &mut bias, a[i], b[j], i + j, c1);
        }
        if i > 0 {
            let prev = c[i - 1].wrapping_sub(bias[i - 1]);
            c[i] = c[i].wrapping_add(((prev as i64) >> 52) as u64);
        }
        let t = to_f(c[i].wrapping_sub(bias[i]) & M52);
        let hm = t.mul_add(np, c1);
        let m = t.mul_add(np, -(hm - c1));
        for j in 0..5 {
            prod(&mut c, &mut bias, m, pf[j], i + j, c1s);
        }
    }
    let mut v = [0u64; 10];
    for k in 0..10 {
        v[k] = c[k].wrapping_sub(bias[k]);
    }
    v[5] = v[5].wrapping_add(((v[4] as i64) >> 52) as u64);
    for k in 0..5 {
        v[5 + k] = v[5 + k].wrapping_add(p[k]);
    }
    for k in 5..9 {
        v[k + 1] = v[k + 1].wrapping_add(((v[k] as i64) >> 52) as u64);
    }
    [v[5] & M52, v[6] & M52, v[7] & M52, v[8] & M52, v[9]]
}
