//! Cold pipeline builds, one kernel at a time: the time a driver takes to create each
//! compute pipeline of an assembled shader, on a fresh device per process.
//!
//! ```text
//! cargo run --release --example pipeline_build -- [ADAPTER] [ARITH] [KIND] [ENTRY...]
//! ```
//! ADAPTER is a case-insensitive part of the adapter name (`llvmpipe`, `swiftshader`;
//! default: the first adapter), ARITH `portable32` (default) or `wide64`, KIND `msm`
//! (default), `check`, `expand`, `field`, `curve` or `bench`, and ENTRY the entry points
//! to build (default: all of the kind's). It prints one line per pipeline,
//! `entry <name> module_ms <t> pipeline_ms <t> wgsl_bytes <n>`. Run one entry point per
//! process under `/usr/bin/time -v` for its peak memory.

use std::time::Instant;
use wgpu_msm::shader::{self, ShaderKind};
use wgpu_msm::MulPath;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let want = args.first().map(|s| s.to_lowercase()).unwrap_or_default();
    let path = match args.get(1).map(String::as_str) {
        Some("wide64") => MulPath::Wide64,
        _ => MulPath::Portable32,
    };
    let kind = match args.get(2).map(String::as_str) {
        Some("check") => ShaderKind::CheckBases,
        Some("expand") => ShaderKind::ExpandBases,
        Some("field") => ShaderKind::TestField,
        Some("curve") => ShaderKind::TestCurve,
        Some("bench") => ShaderKind::BenchArith,
        _ => ShaderKind::Msm,
    };
    let entries: Vec<String> = if args.len() > 3 {
        args[3..].to_vec()
    } else {
        kind.entry_points()
    };

    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    let adapter = adapters
        .into_iter()
        .find(|a| a.get_info().name.to_lowercase().contains(&want))
        .expect("no adapter matches");
    eprintln!("adapter: {:?}", adapter.get_info().name);
    let mut features = wgpu::Features::empty();
    if path == MulPath::Wide64 {
        features |= wgpu::Features::SHADER_INT64;
    }
    let (device, _queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("pipeline_build"),
        required_features: features,
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .expect("device");

    // PIPELINE_BUILD_WGSL names a WGSL file to build instead (for experiments).
    let src = match std::env::var("PIPELINE_BUILD_WGSL") {
        Ok(file) => std::fs::read_to_string(file).expect("PIPELINE_BUILD_WGSL"),
        Err(_) => shader::source(kind, path),
    };
    if std::env::var("PIPELINE_BUILD_DUMP").is_ok() {
        print!("{src}");
        return;
    }
    let started = Instant::now();
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("pipeline_build"),
        source: wgpu::ShaderSource::Wgsl(src.as_str().into()),
    });
    let module_ms = started.elapsed().as_secs_f64() * 1e3;
    for ep in &entries {
        let started = Instant::now();
        let _p = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(ep),
            layout: None,
            module: &module,
            entry_point: Some(ep),
            compilation_options: Default::default(),
            cache: None,
        });
        let ms = started.elapsed().as_secs_f64() * 1e3;
        println!(
            "entry {ep} module_ms {module_ms:.0} pipeline_ms {ms:.0} wgsl_bytes {}",
            src.len()
        );
    }
}
