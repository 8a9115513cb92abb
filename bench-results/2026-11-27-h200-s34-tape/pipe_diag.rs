//! Diagnostic (session 34; kept in bench-results, not an example of the crate): which
//! of the GPU's pipes bound the Wide64 multiply. Each kernel runs `iters` iterations of
//! a body of eight independent chains per kind (so neither latency nor dependencies
//! bound it), and the mixed kernels run two kinds' chains in one body: where a mixed
//! kernel takes the sum of its parts' times the two kinds share a pipe; where it takes
//! the larger one they do not.
//!
//! Kinds: `wide` (u64 += u32 * u32: IMAD.WIDE.U32 with a 64-bit addend), `mul32`
//! (u32 * u32 + u32: IMAD), `alu` (u32 (x ^ y) + (x >> 3): ALU operations), `add64`
//! (u64 += u64), `f64` (fma on f64), `f32` (fma on f32).
use std::time::{Duration, Instant};

/// One chain step of `kind` on chain variable `v{k}` (constants y, z per kind).
fn step(kind: &str, k: u32) -> String {
    match kind {
        "wide" => format!("w{k} += u64(w{k} >> 32u) * u64(ya) + u64(ya);"),
        "wide2" => format!("w{k} += u64(u32(w{k})) * u64(ya);"),
        "mul32" => format!("m{k} = m{k} * ya + yb;"),
        "alu" => format!("a{k} = (a{k} ^ ya) + (a{k} >> 3u);"),
        "add64" => format!("d{k} += d{k} >> 7u;"),
        "f64" => format!("f{k} = fma(f{k}, fy, fz);"),
        "f32" => format!("s{k} = fma(s{k}, sy, sz);"),
        _ => unreachable!(),
    }
}

/// Declarations and the folded result of `kind`'s chains.
fn decl(kind: &str) -> (String, String) {
    let mut d = String::new();
    let mut r = String::new();
    for k in 0..8 {
        let (init, fold) = match kind {
            "wide" | "wide2" => (
                format!("var w{k} = u64(x + {k}u) << 20u;"),
                format!("u32(w{k} >> 13u)"),
            ),
            "mul32" => (format!("var m{k} = x + {k}u;"), format!("m{k}")),
            "alu" => (format!("var a{k} = x * {}u;", k + 3), format!("a{k}")),
            "add64" => (
                format!("var d{k} = u64(x + {k}u) + 1lu;"),
                format!("u32(d{k} >> 9u)"),
            ),
            "f64" => (
                format!("var f{k} = f64(x + {k}u) * 1e-9;"),
                format!("u32(f{k} > 1.0)"),
            ),
            "f32" => (
                format!("var s{k} = f32(x + {k}u) * 1e-9;"),
                format!("u32(s{k} > 1.0)"),
            ),
            _ => unreachable!(),
        };
        d += &format!("    {init}\n");
        r += &format!(" ^ {fold}");
    }
    (d, r)
}

fn kernel(name: &str, kinds: &[&str]) -> String {
    let mut s = format!(
        "@compute @workgroup_size(64)\nfn {name}(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{\n    let i = g.x + g.y * nwg.x * 64u;\n    let x = tin[i % 1024u];\n    let ya = tin[1024u] | 1u;\n    let yb = tin[1025u];\n    let fy = f64(tin[1026u]) * 1e-9 + 0.5;\n    let fz = f64(tin[1027u]) * 1e-9;\n    let sy = f32(tin[1026u]) * 1e-9 + 0.5;\n    let sz = f32(tin[1027u]) * 1e-9;\n"
    );
    let mut fold = String::from("0u");
    for kind in kinds {
        let (d, r) = decl(kind);
        s += &d;
        fold += &r;
    }
    s += "    let n = tin[1028u];\n    for (var it = 0u; it < n; it++) {\n";
    for k in 0..8 {
        for kind in kinds {
            s += &format!("        {}\n", step(kind, k));
        }
    }
    s += &format!("    }}\n    tout[i] = {fold};\n}}\n");
    s
}

/// The Wide64 multiply in a dependent chain with `k` independent FP64 (`f64`) or ALU
/// (`alu`) chain steps beside each multiply, in eight chains.
fn fq_kernel(kind: &str, k: u32) -> String {
    let mut s = format!(
        "@compute @workgroup_size(64)\nfn fq_{kind}_{k}(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{\n    let i = g.x + g.y * nwg.x * 64u;\n    var x = fq_unpack(ta_big(2u * i, LIMBS));\n    let y = fq_unpack(ta_big(2u * i + 1u, LIMBS));\n    let fy = f64(tb[1u]) * 1e-9 + 0.5;\n    let fz = f64(tb[2u]) * 1e-9;\n    let ya = tb[3u] | 1u;\n"
    );
    let mut fold = String::from("x[0] ^ x[7]");
    for c in 0..8 {
        if kind == "f64" {
            s += &format!("    var f{c} = f64(i + {c}u) * 1e-9;\n");
            fold += &format!(" ^ u32(f{c} > 1.0)");
        } else {
            s += &format!("    var a{c} = i * {}u;\n", c + 3);
            fold += &format!(" ^ a{c}");
        }
    }
    s += "    let n = tb[0u];\n    for (var it = 0u; it < n; it++) {\n        x = fq_mul(x, y);\n";
    for r in 0..k {
        let c = r % 8;
        if kind == "f64" {
            s += &format!("        f{c} = fma(f{c}, fy, fz);\n");
        } else {
            s += &format!("        a{c} = (a{c} ^ ya) + (a{c} >> 3u);\n");
        }
    }
    s += &format!("    }}\n    tout[i] = {fold};\n}}\n");
    s
}

fn main() {
    let threads: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1 << 19);
    let iters: u32 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2048);
    let sets: Vec<(&str, Vec<&str>)> = vec![
        ("k_wide", vec!["wide2"]),
        ("k_wideadd", vec!["wide"]),
        ("k_mul32", vec!["mul32"]),
        ("k_alu", vec!["alu"]),
        ("k_add64", vec!["add64"]),
        ("k_f64", vec!["f64"]),
        ("k_f32", vec!["f32"]),
        ("k_wide_alu", vec!["wide2", "alu"]),
        ("k_wide_add64", vec!["wide2", "add64"]),
        ("k_wide_f64", vec!["wide2", "f64"]),
        ("k_wide_f32", vec!["wide2", "f32"]),
        ("k_wide_mul32", vec!["wide2", "mul32"]),
        ("k_mul32_alu", vec!["mul32", "alu"]),
        ("k_f64_alu", vec!["f64", "alu"]),
        ("k_f64_add64", vec!["f64", "add64"]),
    ];
    let mut src = String::from(
        "enable f16;\n@group(0) @binding(0) var<storage, read> tin: array<u32>;\n@group(0) @binding(1) var<storage, read_write> tout: array<u32>;\n",
    );
    src = src.replace("enable f16;\n", "");
    for (name, kinds) in &sets {
        src += &kernel(name, kinds);
    }
    if std::env::var_os("PIPE_DIAG_PRINT").is_some() {
        println!("{src}");
    }
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN));
    for adapter in adapters {
        let info = adapter.get_info();
        let need = wgpu::Features::SHADER_F64 | wgpu::Features::SHADER_INT64 | wgpu::Features::PIPELINE_CACHE;
        if !adapter.features().contains(need) {
            println!("{}: no SHADER_F64/INT64, skipped", info.name);
            continue;
        }
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: None,
            required_features: need,
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .expect("device");
        use wgpu::util::DeviceExt;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("pipe"),
            source: wgpu::ShaderSource::Wgsl(src.clone().into()),
        });
        let mut input: Vec<u32> = (0..1024u32).map(|k| k.wrapping_mul(2654435761)).collect();
        input.extend([0x9e3779b9u32, 12345, 100, 7, iters]);
        let tin = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytemuck::cast_slice(&input),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let tout = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: 4 * u64::from(threads),
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        if std::env::var_os("PIPE_DIAG_FQ").is_some() {
            run_fq(&device, &queue, threads, iters);
            continue;
        }
        println!("{} ({:?}), {threads} threads x {iters} iterations x 8 chains", info.name, info.backend);
        println!("{:<14} {:>10} {:>14}", "kernel", "ms", "G steps/s each");
        for round in 0..2 {
            for (name, _) in &sets {
                // SAFETY: no data is passed in.
                let cache = unsafe {
                    device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
                        label: None,
                        data: None,
                        fallback: true,
                    })
                };
                let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(name),
                    layout: None,
                    module: &module,
                    entry_point: Some(name),
                    compilation_options: Default::default(),
                    cache: Some(&cache),
                });
                if let (0, Some(dir), Some(data)) = (round, std::env::var_os("PIPE_DIAG_CACHES"), cache.get_data()) {
                    let _ = std::fs::write(std::path::Path::new(&dir).join(format!("{name}.bin")), data);
                }
                let bg = device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: None,
                    layout: &pipeline.get_bind_group_layout(0),
                    entries: &[
                        wgpu::BindGroupEntry { binding: 0, resource: tin.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 1, resource: tout.as_entire_binding() },
                    ],
                });
                let mut best = Duration::MAX;
                for rep in 0..5 {
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
                let steps = 8.0 * f64::from(threads) * f64::from(iters);
                if round == 1 {
                    println!(
                        "{:<14} {:>10.3} {:>14.1}",
                        name,
                        best.as_secs_f64() * 1e3,
                        steps / best.as_secs_f64() / 1e9
                    );
                }
            }
        }
    }
}

/// Times the `fq_*` kernels of [`fq_kernel`] on `device`.
fn run_fq(device: &wgpu::Device, queue: &wgpu::Queue, threads: u32, iters: u32) {
    use wgpu::util::DeviceExt;
    let ks = [0u32, 32, 64, 128, 192, 256];
    let mut src = wgpu_msm::shader::source(
        wgpu_msm::shader::ShaderKind::BenchArith,
        wgpu_msm::MulPath::Wide64,
    );
    let mut names = Vec::new();
    for kind in ["f64", "alu"] {
        for k in ks {
            src += &fq_kernel(kind, k);
            names.push(format!("fq_{kind}_{k}"));
        }
    }
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("fq"),
        source: wgpu::ShaderSource::Wgsl(src.into()),
    });
    // Words below p (top word below 0x30000000).
    let input: Vec<u32> = (0..16 * threads)
        .map(|k| {
            let w = k.wrapping_mul(2654435761) ^ (k >> 7);
            if k % 8 == 7 { w % 0x3000_0000 } else { w }
        })
        .collect();
    let ta = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&input),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let tb = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&[iters, 100, 7, 0x9e37_79b9]),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let tout = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 4 * u64::from(threads),
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    println!("{threads} threads x {iters} dependent Fq multiplies, k chain steps beside each");
    println!("{:<14} {:>10} {:>12}", "kernel", "ms", "G Fq mul/s");
    for round in 0..2 {
        for name in &names {
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(name),
                layout: None,
                module: &module,
                entry_point: Some(name),
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
            if round == 1 {
                println!(
                    "{:<14} {:>10.3} {:>12.2}",
                    name,
                    best.as_secs_f64() * 1e3,
                    f64::from(threads) * f64::from(iters) / best.as_secs_f64() / 1e9
                );
            }
        }
    }
}
