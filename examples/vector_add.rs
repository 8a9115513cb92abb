//! The textbook multi-GPU vector add, `c[i] = a[i] + b[i]` on u32, with the two classic
//! data distributions across devices:
//!
//! * block:  device d gets the contiguous range `d*n/D .. (d+1)*n/D`;
//! * cyclic: device d gets elements `d, d+D, d+2D, ...` (gathered on the host into one
//!   contiguous buffer per device, and scattered back afterwards).
//!
//! Each device runs the same tiny WGSL kernel (below, independent of the MSM shaders) on
//! its own thread; the host checks every element.
//!
//! Run:    cargo run --release --example vector_add [-- LOG2_N [LOGICAL]]  (default 20, 2)
//! Prints: the devices, then for each partitioning the element count per device, the
//!         time, and "verified" (exits non-zero on a wrong element). LOGICAL logical
//!         devices are opened per adapter so that a one-GPU machine still shows the split.

use std::time::Instant;
use wgpu::util::DeviceExt;
use wgpu_msm::Device;

const KERNEL: &str = r#"
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> c: array<u32>;

@compute @workgroup_size(64)
fn add(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    // 2-D grid so that more than 65535 * 64 elements fit in one dispatch.
    let i = id.x + id.y * groups.x * 64u;
    if (i < arrayLength(&c)) {
        c[i] = a[i] + b[i];
    }
}
"#;

/// `a + b` (wrapping, as WGSL's u32 add) on one device.
fn add_on(
    dev: &Device,
    a: &[u32],
    b: &[u32],
) -> Result<Vec<u32>, Box<dyn std::error::Error + Send + Sync>> {
    if a.is_empty() {
        return Ok(Vec::new());
    }
    let (d, q) = (dev.wgpu_device(), dev.wgpu_queue());
    let module = d.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("vector_add"),
        source: wgpu::ShaderSource::Wgsl(KERNEL.into()),
    });
    let pipeline = d.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("vector_add"),
        layout: None,
        module: &module,
        entry_point: Some("add"),
        compilation_options: Default::default(),
        cache: None,
    });
    let input = |label, data: &[u32]| {
        d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytemuck::cast_slice(data),
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let (ba, bb) = (input("a", a), input("b", b));
    let bytes = 4 * a.len() as u64;
    let bc = d.create_buffer(&wgpu::BufferDescriptor {
        label: Some("c"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let staging = d.create_buffer(&wgpu::BufferDescriptor {
        label: Some("c/readback"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bind = d.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("vector_add"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: ba.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: bb.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: bc.as_entire_binding(),
            },
        ],
    });
    let groups = (a.len() as u32).div_ceil(64);
    let max_x = dev.info().max_workgroups_per_dimension;
    let (gx, gy) = if groups <= max_x {
        (groups, 1)
    } else {
        (max_x, groups.div_ceil(max_x))
    };
    let mut enc = d.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("vector_add"),
    });
    {
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("add"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind, &[]);
        pass.dispatch_workgroups(gx, gy, 1);
    }
    enc.copy_buffer_to_buffer(&bc, 0, &staging, 0, bytes);
    q.submit([enc.finish()]);
    let (tx, rx) = std::sync::mpsc::channel();
    staging.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send(r);
    });
    d.poll(wgpu::PollType::wait_indefinitely())?;
    rx.recv()??;
    let out = bytemuck::cast_slice::<u8, u32>(&staging.get_mapped_range(..)?).to_vec();
    staging.unmap();
    Ok(out)
}

/// Which elements device `dev` of `devices` owns.
fn indices(n: usize, devices: usize, dev: usize, cyclic: bool) -> Vec<usize> {
    if cyclic {
        (dev..n).step_by(devices).collect()
    } else {
        (dev * n / devices..(dev + 1) * n / devices).collect()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    env_logger::init();
    let mut args = std::env::args().skip(1);
    let log_n: u32 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(20);
    let logical: usize = args
        .next()
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(2)
        .max(1);
    let n = 1usize << log_n;

    let mut devices = Vec::new();
    for d in Device::all()? {
        for _ in 1..logical {
            devices.push(d.open_again()?);
        }
        devices.push(d);
    }
    for (i, d) in devices.iter().enumerate() {
        println!("device {i}: {d:?}");
    }
    let a: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let b: Vec<u32> = (0..n as u32).map(|i| i ^ 0xdead_beef).collect();

    for cyclic in [false, true] {
        let t = Instant::now();
        let mut c = vec![0u32; n];
        let parts: Vec<Vec<usize>> = (0..devices.len())
            .map(|d| indices(n, devices.len(), d, cyclic))
            .collect();
        let outs = std::thread::scope(|s| {
            let handles: Vec<_> = devices
                .iter()
                .zip(&parts)
                .map(|(dev, idx)| {
                    let (a, b) = (&a, &b);
                    s.spawn(move || {
                        // Gather this device's elements (a plain slice copy for blocks).
                        let pa: Vec<u32> = idx.iter().map(|&i| a[i]).collect();
                        let pb: Vec<u32> = idx.iter().map(|&i| b[i]).collect();
                        add_on(dev, &pa, &pb)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("device thread panicked"))
                .collect::<Vec<_>>()
        });
        for (idx, out) in parts.iter().zip(outs) {
            for (&i, v) in idx.iter().zip(out?) {
                c[i] = v;
            }
        }
        let secs = t.elapsed().as_secs_f64();
        if let Some(i) = (0..n).find(|&i| c[i] != a[i].wrapping_add(b[i])) {
            return Err(format!(
                "element {i}: got {}, want {}",
                c[i],
                a[i].wrapping_add(b[i])
            )
            .into());
        }
        let counts: Vec<usize> = parts.iter().map(Vec::len).collect();
        let name = if cyclic { "cyclic" } else { "block" };
        println!("{name:>6}: 2^{log_n} elements, per device {counts:?}, {secs:.3} s, verified");
    }
    Ok(())
}
