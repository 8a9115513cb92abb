//! `transfer`: host->device, device->host and device->device (through the host: wgpu has
//! no peer-to-peer copies) bandwidth for every pair of devices.

use std::time::Instant;
use wgpu_msm::{Device, Result};

fn buffer(d: &Device, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    d.wgpu_device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("transfer"),
        size,
        usage,
        mapped_at_creation: false,
    })
}

fn wait(d: &Device) {
    let _ = d.wgpu_device().poll(wgpu::PollType::wait_indefinitely());
}

/// Seconds to upload `data` to `d`.
fn upload(d: &Device, dst: &wgpu::Buffer, data: &[u8]) -> f64 {
    let t = Instant::now();
    d.wgpu_queue().write_buffer(dst, 0, data);
    d.wgpu_queue().submit([]);
    wait(d);
    t.elapsed().as_secs_f64()
}

/// Seconds to read `src` back into `out`.
fn download(d: &Device, src: &wgpu::Buffer, staging: &wgpu::Buffer, out: &mut Vec<u8>) -> f64 {
    let t = Instant::now();
    let mut enc = d.wgpu_device().create_command_encoder(&Default::default());
    enc.copy_buffer_to_buffer(src, 0, staging, 0, src.size());
    d.wgpu_queue().submit([enc.finish()]);
    staging.map_async(wgpu::MapMode::Read, .., |_| {});
    wait(d);
    if let Ok(view) = staging.get_mapped_range(..) {
        out.clear();
        out.extend_from_slice(&view);
    }
    staging.unmap();
    t.elapsed().as_secs_f64()
}

/// Prints the bandwidth table and the device-to-device matrix (GB/s).
pub(crate) fn run(mib: u64) -> Result<bool> {
    let devices = Device::all()?;
    let size = mib << 20;
    let data: Vec<u8> = (0..size).map(|i| (i * 2654435761 % 251) as u8).collect();
    let use_dst =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
    let use_map = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
    let bufs: Vec<(wgpu::Buffer, wgpu::Buffer)> = devices
        .iter()
        .map(|d| (buffer(d, size, use_dst), buffer(d, size, use_map)))
        .collect();
    let gbs = |secs: f64| size as f64 / secs / 1e9;
    println!("{mib} MiB per transfer");
    println!("{:<36} {:>12} {:>12}", "device", "H2D GB/s", "D2H GB/s");
    let mut ok = true;
    for (d, (buf, staging)) in devices.iter().zip(&bufs) {
        upload(d, buf, &data); // warm-up
        let h2d = (0..3)
            .map(|_| upload(d, buf, &data))
            .fold(f64::MAX, f64::min);
        let mut back = Vec::new();
        let d2h = (0..3)
            .map(|_| download(d, buf, staging, &mut back))
            .fold(f64::MAX, f64::min);
        ok &= back == data;
        println!(
            "{:<36} {:>12.2} {:>12.2}",
            format!("#{} {}", d.index(), d.name()),
            gbs(h2d),
            gbs(d2h)
        );
    }
    println!("\ndevice-to-device through the host, GB/s (row: from, column: to)");
    print!("{:>6}", "");
    for j in 0..devices.len() {
        print!("{:>10}", format!("#{j}"));
    }
    println!();
    for (i, src) in devices.iter().enumerate() {
        print!("{:>6}", format!("#{i}"));
        for (j, dst) in devices.iter().enumerate() {
            let mut tmp = Vec::new();
            let t = Instant::now();
            download(src, &bufs[i].0, &bufs[i].1, &mut tmp);
            upload(dst, &bufs[j].0, &tmp);
            print!("{:>10.2}", gbs(t.elapsed().as_secs_f64()));
        }
        println!();
    }
    println!(
        "{}",
        if ok {
            "round trips verified"
        } else {
            "ROUND TRIP MISMATCH"
        }
    );
    Ok(ok)
}
