//! An application that renders with wgpu keeps rendering while an MSM runs on the same
//! `wgpu::Device` (wrapped with `Device::from_wgpu`, so no second device is opened).
//! Headless: frames go to an offscreen texture.
//!
//! Run:    cargo run --release --example render_while_msm
//! Prints: the adapter, how many frames were rendered while the MSM ran, and whether the
//!         MSM matched arkworks.

use ark_bn254::G1Projective;
use ark_ec::VariableBaseMSM;
use std::sync::atomic::{AtomicBool, Ordering};
use wgpu_msm::testing::{random_bases, random_scalars};
use wgpu_msm::{Device, MsmConfig};

const SHADER: &str = r#"
@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let x = f32(i32(i) - 1);
    let y = f32(i32(i & 1u) * 2 - 1);
    return vec4<f32>(x, y, 0.0, 1.0);
}
@fragment
fn fs() -> @location(0) vec4<f32> {
    return vec4<f32>(1.0, 0.5, 0.0, 1.0);
}
"#;

fn main() {
    // The application's own device, as a renderer would open it.
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .expect(
                "no adapter: install a Vulkan driver (lavapipe: mesa-vulkan-drivers libvulkan1)",
            );
    let features = adapter.features() & wgpu::Features::SHADER_INT64;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("app"),
        required_features: features,
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .expect("device");
    println!("adapter: {}", adapter.get_info().name);

    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("app/triangle"),
        source: wgpu::ShaderSource::Wgsl(SHADER.into()),
    });
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("app/triangle"),
        layout: None,
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(format.into())],
        }),
        multiview_mask: None,
        cache: None,
    });
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("app/frame"),
        size: wgpu::Extent3d {
            width: 256,
            height: 256,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let view = target.create_view(&Default::default());

    // The MSM shares the application's device and queue.
    let msm_device = Device::from_wgpu(adapter.clone(), device.clone(), queue.clone());
    let n = 1 << 12;
    let bases = random_bases(n, 256, 5);
    let scalars = random_scalars(n, 5);
    let want = G1Projective::msm(&bases, &scalars).expect("equal lengths");

    let done = AtomicBool::new(false);
    let (frames, got) = std::thread::scope(|s| {
        let msm = s.spawn(|| {
            let r = msm_device.msm(&bases, &scalars, &MsmConfig::default());
            done.store(true, Ordering::Release);
            r
        });
        let mut frames = 0u64;
        while !done.load(Ordering::Acquire) {
            let mut enc = device.create_command_encoder(&Default::default());
            {
                let mut pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("app/frame"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    ..Default::default()
                });
                pass.set_pipeline(&pipeline);
                pass.draw(0..3, 0..1);
            }
            queue.submit([enc.finish()]);
            let _ = device.poll(wgpu::PollType::wait_indefinitely());
            frames += 1;
        }
        (frames, msm.join().expect("msm thread"))
    });
    let ok = matches!(&got, Ok(r) if *r == want);
    println!("frames rendered while the MSM ran: {frames}");
    println!("MSM of {n} points on the shared device matches arkworks: {ok}");
    assert!(ok, "MSM mismatch: {got:?}");
}
