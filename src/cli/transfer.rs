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

/// Copies `data` into the mapped `buf` on `threads` threads; seconds taken.
fn fill(buf: &wgpu::Buffer, data: &[u8], threads: usize) -> f64 {
    let t = Instant::now();
    if let Ok(mut view) = buf.slice(..).get_mapped_range_mut() {
        let mut rest = view.slice(..);
        let per = data.len().div_ceil(threads);
        let mut parts = Vec::new();
        for src in data.chunks(per) {
            let (mine, tail) = rest.split_at(src.len());
            rest = tail;
            parts.push((mine, src));
        }
        std::thread::scope(|s| {
            for (mine, src) in parts {
                let mut mine = Sendable(mine);
                s.spawn(move || {
                    let m = &mut mine;
                    m.0.copy_from_slice(src);
                });
            }
        });
    }
    t.elapsed().as_secs_f64()
}

/// A write-only view moved to one filling thread.
struct Sendable<'a>(wgpu::WriteOnly<'a, [u8]>);
// SAFETY: each view is a disjoint part of one mapping (from `split_at`), written by one
// thread only, like a `&mut [u8]`.
unsafe impl Send for Sendable<'_> {}

/// The upload path the MSM uses: host writes into a mapped MAP_WRITE buffer (by 1 to
/// 32 threads), then the device copies it into a storage buffer. Prints GB/s of each.
fn staged(devices: &[Device], size: u64, data: &[u8]) {
    let use_up = wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC;
    let use_dst = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
    let gbs = |secs: f64| size as f64 / secs / 1e9;
    let remap = |d: &Device, b: &wgpu::Buffer| {
        b.map_async(wgpu::MapMode::Write, .., |_| {});
        wait(d);
    };
    println!("\nstaged upload (mapped MAP_WRITE buffer, then a device copy), GB/s, best of 3");
    println!(
        "{:<24} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9}",
        "device", "fill 1", "4", "8", "16", "32", "dev copy"
    );
    let mut bufs = Vec::new();
    for d in devices {
        let up = d.wgpu_device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("transfer/staged"),
            size,
            usage: use_up,
            mapped_at_creation: true,
        });
        let dst = buffer(d, size, use_dst);
        let mut row = format!(
            "{:<24}",
            format!("#{} {}", d.index(), d.name())
                .chars()
                .take(24)
                .collect::<String>()
        );
        for threads in [1, 4, 8, 16, 32] {
            let best = (0..3)
                .map(|_| {
                    let t = fill(&up, data, threads);
                    up.unmap();
                    remap(d, &up);
                    t
                })
                .fold(f64::MAX, f64::min);
            row += &format!(" {:>7.1}", gbs(best));
        }
        up.unmap();
        let copy = (0..3)
            .map(|_| {
                let t = Instant::now();
                let mut enc = d.wgpu_device().create_command_encoder(&Default::default());
                enc.copy_buffer_to_buffer(&up, 0, &dst, 0, size);
                d.wgpu_queue().submit([enc.finish()]);
                wait(d);
                t.elapsed().as_secs_f64()
            })
            .fold(f64::MAX, f64::min);
        row += &format!(" {:>9.1}", gbs(copy));
        println!("{row}");
        remap(d, &up);
        bufs.push(up);
    }
    // Every device's fill at once, 16 threads each (what a cluster's streams do).
    let times: Vec<f64> = std::thread::scope(|s| {
        let hs: Vec<_> = bufs
            .iter()
            .map(|b| s.spawn(move || fill(b, data, 16)))
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .collect()
    });
    let all: Vec<String> = times.iter().map(|&t| format!("{:.1}", gbs(t))).collect();
    println!(
        "all devices at once, 16 threads each: {} GB/s",
        all.join(" / ")
    );
}

/// Prints the bandwidth table and the device-to-device matrix (GB/s).
pub(crate) fn run(mib: u64) -> Result<bool> {
    let devices = Device::all()?;
    let size = mib << 20;
    // The data, its read-back copy and the device-to-device hop on the host, and on a
    // CPU adapter (device memory is host memory) its four buffers of `size`.
    let software = devices.iter().filter(|d| d.info().software).count() as u64;
    let needed = size.saturating_mul(3 + 4 * software);
    wgpu_msm::host::check(&format!("transfer --mib {mib}"), needed)?;
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
    staged(&devices, size, &data);
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
