//! DIAGNOSTIC (session 36; kept in bench-results, not an example of the crate): a BN254
//! Fq Montgomery multiply made of FP64 operations only (eleven signed 24-bit digits held
//! in f64, R = 2^264), checked against arkworks, timed alone and beside the crate's
//! Wide64 integer multiply (in one thread, and in warps of each kind in one workgroup).
//!
//! Every limb product of two digits below 2^24 in magnitude is exact in an f64 (48
//! bits), and a column of 11 products plus 11 reduction terms stays below 2^53, so one
//! fused multiply-add per product is exact. Rounding to a multiple of 2^24 uses
//! fma(x, 2^-24, M) - M with M = 1.5 * 2^52 (round to nearest: signed digits). The
//! constants are read from a buffer at run time (session 28: folded constants broke the
//! split).
use ark_ff::{BigInteger, PrimeField};
use ark_std::rand::RngCore;
use num_bigint::{BigInt, BigUint, Sign};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

const MAGIC: f64 = 6755399441055744.0; // 1.5 * 2^52

/// The curve (env `F64_DIAG_CURVE`: bn254, the default, or bls12-381): its Fq modulus,
/// digit count (R = 2^(24 D)) and the crate's group for the integer kernel.
fn bls() -> bool {
    std::env::var("F64_DIAG_CURVE").as_deref() == Ok("bls12-381")
}

fn digits() -> usize {
    if bls() { 16 } else { 11 }
}

fn p_big() -> BigUint {
    if bls() {
        BigUint::from_bytes_le(&ark_bls12_381::Fq::MODULUS.to_bytes_le())
    } else {
        BigUint::from_bytes_le(&ark_bn254::Fq::MODULUS.to_bytes_le())
    }
}

/// Montgomery-form arithmetic on the host: x * y mod p.
fn mulmod(x: &BigUint, y: &BigUint) -> BigUint {
    (x * y) % p_big()
}

/// R^-1 mod p, R = 2^(24 D).
fn r_inverse() -> BigUint {
    let p = p_big();
    let r = (BigUint::from(1u32) << (24 * digits())) % &p;
    r.modpow(&(&p - 2u32), &p)
}

/// p's eleven 24-bit digits and n' = -p^-1 mod 2^24.
fn p_digits() -> (Vec<f64>, f64) {
    let d_n = digits();
    let p = p_big();
    let mut d = vec![0f64; d_n];
    for (k, x) in d.iter_mut().enumerate() {
        let v: BigUint = (&p >> (24 * k)) & BigUint::from(0xff_ffffu32);
        *x = v.to_u64_digits().first().copied().unwrap_or(0) as f64;
    }
    let p0 = p.to_u64_digits()[0] & 0xff_ffff;
    let mut inv: u64 = 1;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(inv))) & 0xff_ffff;
    }
    assert_eq!((inv * p0) & 0xff_ffff, 1);
    (d, ((1u64 << 24) - inv) as f64)
}

/// Signed digits in [-2^23, 2^23) of v (0 <= v < 2^264 / 2).
fn to_digits(v: &BigUint) -> Vec<f64> {
    let d_n = digits();
    let mut d = vec![0f64; d_n];
    let mut carry = 0i64;
    for (k, x) in d.iter_mut().enumerate() {
        let w: BigUint = (v >> (24 * k)) & BigUint::from(0xff_ffffu32);
        let mut w = w.to_u64_digits().first().copied().unwrap_or(0) as i64 + carry;
        carry = 0;
        if w >= 1 << 23 && k + 1 < d_n {
            w -= 1 << 24;
            carry = 1;
        }
        *x = w as f64;
    }
    d
}

fn from_digits(d: &[f64]) -> BigInt {
    let mut v = BigInt::from(0);
    for (k, x) in d.iter().enumerate() {
        assert_eq!(x.fract(), 0.0);
        v += BigInt::from(*x as i64) << (24 * k);
    }
    v
}

/// The multiply on the CPU, step for step as the WGSL below; also returns the largest
/// |column| seen (must stay below 2^53).
fn mul_cpu(a: &[f64], b: &[f64]) -> (Vec<f64>, f64) {
    let dd = digits();
    let (p, np) = p_digits();
    let s = 2f64.powi(-24);
    let nt = -(2f64.powi(24));
    let ps = np * s;
    let mut c = vec![0f64; 2 * dd];
    let mut big = 0f64;
    for i in 0..dd {
        for j in 0..dd {
            c[i + j] = a[i].mul_add(b[j], c[i + j]);
            big = big.max(c[i + j].abs());
        }
    }
    for i in 0..dd {
        let h = c[i].mul_add(s, MAGIC) - MAGIC;
        let lo = h.mul_add(nt, c[i]);
        let r = lo.mul_add(ps, MAGIC) - MAGIC;
        let t = lo * np;
        let q = r.mul_add(nt, t);
        let e = q.mul_add(p[0], c[i]);
        assert_eq!(e % 2f64.powi(24), 0.0);
        c[i + 1] = e.mul_add(s, c[i + 1]);
        for j in 1..dd {
            c[i + j] = q.mul_add(p[j], c[i + j]);
            big = big.max(c[i + j].abs());
        }
    }
    for k in dd..2 * dd - 1 {
        let h = c[k].mul_add(s, MAGIC) - MAGIC;
        c[k] = h.mul_add(nt, c[k]);
        c[k + 1] += h;
    }
    (c[dd..].to_vec(), big)
}

/// WGSL: the constants as private variables loaded by `kinit` from tb[2..], and
/// `mul24`, straight-line.
fn wgsl_mul() -> String {
    #[allow(non_snake_case)]
    let D = digits();
    let mut s = String::new();
    let names: Vec<String> = ["KM", "KS", "KNT", "KNP", "KPS"]
        .iter()
        .map(|x| x.to_string())
        .chain((0..D).map(|j| format!("KP{j}")))
        .collect();
    for n in &names {
        writeln!(s, "var<private> {n}: f64;").unwrap();
    }
    s += "fn kload(k: u32) -> f64 { return bitcast<f64>(u64(tb[k]) | (u64(tb[k + 1u]) << 32u)); }\n";
    s += "fn kinit() {\n";
    for (k, n) in names.iter().enumerate() {
        writeln!(s, "    {n} = kload({}u);", 2 + 2 * k).unwrap();
    }
    s += "}\n";
    s += &format!("alias F24 = array<f64, {D}>;\n");
    s += "fn mul24(a: F24, b: F24) -> F24 {\n";
    for i in 0..D {
        writeln!(s, "    let a{i} = a[{i}]; let b{i} = b[{i}];").unwrap();
    }
    let mut started = vec![false; 2 * D];
    for k in 0..2 * D - 1 {
        for i in 0..D {
            if k < i || k - i >= D {
                continue;
            }
            let j = k - i;
            if started[k] {
                writeln!(s, "    c{k} = fma(a{i}, b{j}, c{k});").unwrap();
            } else {
                writeln!(s, "    var c{k} = a{i} * b{j};").unwrap();
                started[k] = true;
            }
        }
    }
    s += &format!("    var c{} = 0.0lf;\n", 2 * D - 1);
    if std::env::var("F64_DIAG_STAGE").as_deref() == Ok("1") {
        s += &format!("    return F24({});\n", (0..D).map(|k| format!("c{k}")).collect::<Vec<_>>().join(", "));
    }
    for i in 0..D {
        writeln!(
            s,
            "    {{ let h = fma(c{i}, KS, KM) - KM; let lo = fma(h, KNT, c{i}); let r = fma(lo, KPS, KM) - KM; let q = fma(r, KNT, lo * KNP); let e = fma(q, KP0, c{i}); c{n} = fma(e, KS, c{n});",
            n = i + 1
        )
        .unwrap();
        for j in 1..D {
            writeln!(s, "      c{k} = fma(q, KP{j}, c{k});", k = i + j).unwrap();
        }
        s += "    }\n";
    }
    for k in D..2 * D - 1 {
        writeln!(
            s,
            "    {{ let h = fma(c{k}, KS, KM) - KM; c{k} = fma(h, KNT, c{k}); c{n} = c{n} + h; }}",
            n = k + 1
        )
        .unwrap();
    }
    s += "    return F24(";
    for k in D..2 * D {
        write!(s, "c{k}{}", if k + 1 < 2 * D { ", " } else { ");\n}\n" }).unwrap();
    }
    s
}

const KERNELS: &str = r#"
@group(0) @binding(3) var<storage, read> fa: array<u32>;
@group(0) @binding(4) var<storage, read_write> fout: array<u32>;

fn fload(e: u32) -> F24 {
    var r: F24;
    for (var k = 0u; k < 11u; k++) {
        r[k] = bitcast<f64>(u64(fa[22u * e + 2u * k]) | (u64(fa[22u * e + 2u * k + 1u]) << 32u));
    }
    return r;
}

fn fstore(i: u32, x: F24) {
    for (var k = 0u; k < 11u; k++) {
        let b = bitcast<u64>(x[k]);
        fout[22u * i + 2u * k] = u32(b & 0xfffffffflu);
        fout[22u * i + 2u * k + 1u] = u32(b >> 32u);
    }
}

fn run_int(i: u32) {
    let e = i % tb[1];
    var x = fq_unpack(ta_big(2u * e, LIMBS));
    let y = fq_unpack(ta_big(2u * e + 1u, LIMBS));
    for (var k = 0u; k < tb[0]; k++) {
        x = fq_mul(x, y);
    }
    tout[i] = x[0] ^ x[7];
}

fn run_f64(i: u32) {
    let e = i % tb[1];
    var x = fload(2u * e);
    let y = fload(2u * e + 1u);
    for (var k = 0u; k < tb[0]; k++) {
        x = mul24(x, y);
    }
    fstore(i, x);
}

@compute @workgroup_size(64)
fn k_dbg(@builtin(global_invocation_id) g: vec3<u32>) {
    kinit();
    let x = fload(0u);
    let y = fload(3u);
    var r = mul24(fload(2u), y);
    fstore(g.x, r);
}

@compute @workgroup_size(64)
fn k_int(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    run_int(g.x + g.y * nwg.x * 64u);
}

@compute @workgroup_size(64)
fn k_f64(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    kinit();
    run_f64(g.x + g.y * nwg.x * 64u);
}

@compute @workgroup_size(64)
fn k_both(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    kinit();
    let i = g.x + g.y * nwg.x * 64u;
    let e = i % tb[1];
    var x = fq_unpack(ta_big(2u * e, LIMBS));
    let y = fq_unpack(ta_big(2u * e + 1u, LIMBS));
    var xf = fload(2u * e);
    let yf = fload(2u * e + 1u);
    for (var k = 0u; k < tb[0]; k++) {
        x = fq_mul(x, y);
        xf = mul24(xf, yf);
    }
    tout[i] = x[0] ^ x[7];
    fstore(i, xf);
}

@compute @workgroup_size(64)
fn k_f64x2(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    kinit();
    let i = g.x + g.y * nwg.x * 64u;
    let e = i % tb[1];
    var x = fload(2u * e);
    let y = fload(2u * e + 1u);
    var x2 = fload(2u * ((e + 1u) % tb[1]));
    for (var k = 0u; k < tb[0]; k++) {
        x = mul24(x, y);
        x2 = mul24(x2, y);
    }
    fstore(i, x);
    fout[22u * i] ^= u32(bitcast<u64>(x2[3]) & 1lu);
}

// Warps of each kind in one workgroup: warp w of the workgroup runs the f64 chain when
// w < FW, the integer one otherwise (the branch is uniform in a warp of 32).
@compute @workgroup_size(64)
fn k_warp_1of2(@builtin(global_invocation_id) g: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(num_workgroups) nwg: vec3<u32>) {
    kinit();
    let i = g.x + g.y * nwg.x * 64u;
    if (l < 32u) { run_f64(i); } else { run_int(i); }
}

@compute @workgroup_size(128)
fn k_warp_1of4(@builtin(global_invocation_id) g: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(num_workgroups) nwg: vec3<u32>) {
    kinit();
    let i = g.x + g.y * nwg.x * 128u;
    if (l < 32u) { run_f64(i); } else { run_int(i); }
}

@compute @workgroup_size(128)
fn k_warp_3of4(@builtin(global_invocation_id) g: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(num_workgroups) nwg: vec3<u32>) {
    kinit();
    let i = g.x + g.y * nwg.x * 128u;
    if (l < 96u) { run_f64(i); } else { run_int(i); }
}
"#;

/// (entry, workgroup size, multiplies per thread-iteration, f64 threads to check:
/// 0 none, 1 all, 2 first warp of 64, 3 first warp of 128, 4 first three warps of 128)
const ENTRIES: [(&str, u32, f64, u32); 7] = [
    ("k_int", 64, 1.0, 0),
    ("k_f64", 64, 1.0, 1),
    ("k_f64x2", 64, 2.0, 0),
    ("k_both", 64, 2.0, 1),
    ("k_warp_1of2", 64, 1.0, 2),
    ("k_warp_1of4", 128, 1.0, 3),
    ("k_warp_3of4", 128, 1.0, 4),
];

fn checks_thread(kind: u32, i: u32) -> bool {
    match kind {
        1 => true,
        2 => i % 64 < 32,
        3 => i % 128 < 32,
        4 => i % 128 < 96,
        _ => false,
    }
}

fn main() {
    let threads: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1 << 20);
    let iters: u32 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(1024);
    let distinct: u32 = 4096;
    let d_n = digits();
    let p = p_big();
    let r_inv = r_inverse();

    // Inputs: edges then random canonical elements, in pairs (x, y).
    let mut rng = ark_std::test_rng();
    let edges = [BigUint::from(0u32), BigUint::from(1u32), &p - 1u32, &p - 2u32, (&p - 1u32) >> 1];
    let mut elems: Vec<BigUint> = Vec::new();
    for k in 0..2 * distinct as usize {
        elems.push(if k < 2 * edges.len() {
            edges[(k * 3) % edges.len()].clone()
        } else {
            let mut bytes = vec![0u8; 64];
            rng.fill_bytes(&mut bytes);
            BigUint::from_bytes_le(&bytes) % &p
        });
    }
    let canon = |v: &BigInt| -> BigUint {
        let m = BigInt::from_biguint(Sign::Plus, p.clone());
        (((v % &m) + &m) % &m).to_biguint().unwrap()
    };
    // CPU emulation: short chains against big-integer arithmetic; the worst digit pattern
    // (every digit +-2^24, a lazily added operand) for the column bound.
    {
        let mut bad = 0;
        let mut big = 0f64;
        for e in 0..distinct as usize {
            let y = to_digits(&elems[2 * e + 1]);
            let mut z = to_digits(&elems[2 * e]);
            let mut want = elems[2 * e].clone();
            let step = mulmod(&elems[2 * e + 1], &r_inv);
            for _ in 0..3 {
                let (r, b) = mul_cpu(&z, &y);
                big = big.max(b);
                z = r;
                want = mulmod(&want, &step);
                if canon(&from_digits(&z)) != want || z.iter().take(d_n - 1).any(|d| d.abs() > 2f64.powi(23)) {
                    bad += 1;
                }
            }
        }
        for sa in [1f64, -1f64] {
            for sb in [1f64, -1f64] {
                let a = vec![sa * 2f64.powi(24); d_n];
                let b = vec![sb * 2f64.powi(24); d_n];
                let (r, b2) = mul_cpu(&a, &b);
                big = big.max(b2);
                let want = mulmod(&mulmod(&canon(&from_digits(&a)), &canon(&from_digits(&b))), &r_inv);
                if canon(&from_digits(&r)) != want {
                    bad += 1;
                }
            }
        }
        println!(
            "cpu emulation ({} digits): {bad} wrong of {} chain steps and 4 extreme pairs; largest |column| 2^{:.2}",
            d_n,
            3 * distinct,
            big.log2()
        );
        assert!(big < 2f64.powi(53));
    }

    let group = if bls() { wgpu_msm::GroupId::Bls12381G1 } else { wgpu_msm::GroupId::Bn254G1 };
    let mut src = wgpu_msm::shader::source_for(
        group,
        wgpu_msm::shader::ShaderKind::BenchArith,
        wgpu_msm::MulPath::Wide64,
        Default::default(),
        Default::default(),
    );
    src += &wgsl_mul();
    src += &KERNELS.replace("22u", &format!("{}u", 2 * d_n)).replace("11u", &format!("{d_n}u"));
    if std::env::var_os("F64_DIAG_PRINT").is_some() {
        println!("{src}");
        return;
    }
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN));
    let mut seen = false;
    for adapter in adapters {
        let info = adapter.get_info();
        let need = wgpu::Features::SHADER_F64 | wgpu::Features::SHADER_INT64 | wgpu::Features::PIPELINE_CACHE;
        if !adapter.features().contains(need) {
            println!("{} ({:?}): no SHADER_F64/INT64/PIPELINE_CACHE, skipped", info.name, info.backend);
            continue;
        }
        seen = true;
        run_on(&adapter, &src, &elems, threads, iters, distinct, &r_inv);
    }
    assert!(seen, "no adapter with SHADER_F64 and SHADER_INT64");
}

fn run_on(adapter: &wgpu::Adapter, src: &str, elems: &[BigUint], threads: u32, iters: u32, distinct: u32, r_inv: &BigUint) {
    let d_n = digits();
    let words = if bls() { 12 } else { 8 };
    use wgpu::util::DeviceExt;
    let info = adapter.get_info();
    let need = wgpu::Features::SHADER_F64 | wgpu::Features::SHADER_INT64 | wgpu::Features::PIPELINE_CACHE;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: None,
        required_features: need,
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .expect("device");
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("f64-24"),
        source: wgpu::ShaderSource::Wgsl(src.into()),
    });
    let p = p_big();
    // ta: each element as 8 words (the crate's unpack takes canonical 32-bit words).
    let mut ta_words: Vec<u32> = Vec::new();
    let mut fa_words: Vec<u32> = Vec::new();
    for v in elems {
        let mut bytes = v.to_bytes_le();
        bytes.resize(4 * words, 0);
        for c in bytes.chunks(4) {
            ta_words.push(u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        }
        for d in to_digits(v) {
            let b = d.to_bits();
            fa_words.push(b as u32);
            fa_words.push((b >> 32) as u32);
        }
    }
    let (pd, np) = p_digits();
    let mut tb_words = vec![iters, distinct];
    for x in [MAGIC, 2f64.powi(-24), -(2f64.powi(24)), np, np * 2f64.powi(-24)].into_iter().chain(pd) {
        let b = x.to_bits();
        tb_words.push(b as u32);
        tb_words.push((b >> 32) as u32);
    }
    let storage = |w: &[u32]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytemuck::cast_slice(w),
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let ta = storage(&ta_words);
    let tb = storage(&tb_words);
    let fa = storage(&fa_words);
    let tout = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 4 * u64::from(threads),
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let fsize = 8 * d_n as u64 * u64::from(threads);
    let fout = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: fsize,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let rb = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: fsize,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    // Expected chain results per distinct pair.
    let want: Vec<BigUint> = (0..distinct as usize)
        .map(|e| {
            let step = mulmod(&elems[2 * e + 1], r_inv);
            mulmod(&elems[2 * e], &step.modpow(&BigUint::from(iters), &p))
        })
        .collect();
    if std::env::var_os("F64_DIAG_DBG").is_some() {
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None, layout: None, module: &module, entry_point: Some("k_dbg"),
            compilation_options: Default::default(), cache: None,
        });
        let bg = device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &pipeline.get_bind_group_layout(0), entries: &[
            wgpu::BindGroupEntry { binding: 1, resource: tb.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 3, resource: fa.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 4, resource: fout.as_entire_binding() }] });
        let mut enc = device.create_command_encoder(&Default::default());
        { let mut pass = enc.begin_compute_pass(&Default::default()); pass.set_pipeline(&pipeline); pass.set_bind_group(0, &bg, &[]); pass.dispatch_workgroups(1, 1, 1); }
        enc.copy_buffer_to_buffer(&fout, 0, &rb, 0, 8 * d_n as u64);
        queue.submit([enc.finish()]);
        rb.slice(..8 * d_n as u64).map_async(wgpu::MapMode::Read, |_| {});
        device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
        let data = rb.slice(..8 * d_n as u64).get_mapped_range().expect("mapped");
        let w: &[f64] = bytemuck::cast_slice(&data);
        println!("dbg: {:?}\ncpu  {:?}", &w[..d_n], mul_cpu(&to_digits(&elems[2]), &to_digits(&elems[3])).0);
        return;
    }
    let caches = std::env::var_os("F64_DIAG_CACHES");
    let mut pipes = Vec::new();
    for (entry, _, _, _) in ENTRIES {
        // SAFETY: no data is passed in.
        let cache = unsafe {
            device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor { label: None, data: None, fallback: true })
        };
        let t = Instant::now();
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout: None,
            module: &module,
            entry_point: Some(entry),
            compilation_options: Default::default(),
            cache: Some(&cache),
        });
        println!("{entry}: pipeline built in {:?}", t.elapsed());
        if let (Some(dir), Some(data)) = (&caches, cache.get_data()) {
            let _ = std::fs::write(std::path::Path::new(dir).join(format!("{entry}.bin")), data);
        }
        let layout = pipeline.get_bind_group_layout(0);
        let all = [(0, &ta), (1, &tb), (2, &tout), (3, &fa), (4, &fout)];
        let uses: &[u32] = match entry {
            "k_int" => &[0, 1, 2],
            "k_f64" | "k_f64x2" => &[1, 3, 4],
            _ => &[0, 1, 2, 3, 4],
        };
        let entries: Vec<wgpu::BindGroupEntry> = all
            .iter()
            .filter(|(b, _)| uses.contains(b))
            .map(|(b, buf)| wgpu::BindGroupEntry { binding: *b, resource: buf.as_entire_binding() })
            .collect();
        let bg = device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &layout, entries: &entries });
        pipes.push((pipeline, bg));
    }
    let dispatch = |k: usize| {
        let (entry, wg, _, _) = ENTRIES[k];
        let _ = entry;
        let mut enc = device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipes[k].0);
            pass.set_bind_group(0, &pipes[k].1, &[]);
            let groups = threads.div_ceil(wg);
            let (x, y) = if groups > 65535 { (32768, groups.div_ceil(32768)) } else { (groups, 1) };
            pass.dispatch_workgroups(x, y, 1);
        }
        let t = Instant::now();
        queue.submit([enc.finish()]);
        device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
        t.elapsed()
    };
    // Correctness of every kernel that runs the f64 chain.
    for (k, (entry, _, _, check)) in ENTRIES.iter().enumerate() {
        if *check == 0 {
            continue;
        }
        dispatch(k);
        let mut enc = device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(&fout, 0, &rb, 0, fsize);
        queue.submit([enc.finish()]);
        rb.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
        let (mut bad, mut checked) = (0u64, 0u64);
        {
            let data = rb.slice(..).get_mapped_range().expect("mapped");
            let words: &[u32] = bytemuck::cast_slice(&data);
            let m = BigInt::from_biguint(Sign::Plus, p.clone());
            for i in 0..threads {
                if !checks_thread(*check, i) || (i >= 65536 && i % 61 != 0) {
                    continue;
                }
                let d: Vec<f64> = (0..d_n)
                    .map(|k| f64::from_bits(u64::from(words[2 * d_n * i as usize + 2 * k]) | (u64::from(words[2 * d_n * i as usize + 2 * k + 1]) << 32)))
                    .collect();
                let ok = d.iter().all(|x| x.fract() == 0.0 && x.abs() < 2f64.powi(40));
                let v = if ok { from_digits(&d) } else { BigInt::from(0) };
                let v = ((v % &m) + &m) % &m;
                checked += 1;
                if !ok || v.to_biguint().unwrap() != want[(i % distinct) as usize] {
                    if bad < 3 {
                        println!("  {entry}: thread {i} wrong: {d:?}");
                    }
                    bad += 1;
                }
            }
        }
        rb.unmap();
        println!("{} ({:?}) {entry}: f64 chain {bad} of {checked} threads wrong ({iters} multiplies each)", info.name, info.backend);
    }
    // Warm the clocks, then time: two rounds over every kernel, best of 5 each.
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_millis(800) {
        dispatch(0);
    }
    let mut best = vec![Duration::MAX; ENTRIES.len()];
    for _round in 0..2 {
        for k in 0..ENTRIES.len() {
            dispatch(k);
            for _ in 0..5 {
                best[k] = best[k].min(dispatch(k));
            }
        }
    }
    println!("{} ({:?}), {threads} threads x {iters} dependent multiplies", info.name, info.backend);
    println!("{:<14} {:>10} {:>12} {:>10}", "kernel", "best ms", "G Fq mul/s", "vs k_int");
    let base = best[0].as_secs_f64();
    for (k, (entry, _, per, _)) in ENTRIES.iter().enumerate() {
        let t = best[k].as_secs_f64();
        println!(
            "{:<14} {:>10.3} {:>12.2} {:>10.2}",
            entry,
            t * 1e3,
            per * f64::from(threads) * f64::from(iters) / t / 1e9,
            per * base / t
        );
    }
}
