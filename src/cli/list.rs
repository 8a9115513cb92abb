//! `list`: one row per selected device, then each device's tuning.

use wgpu_msm::Device;

/// Prints the device table.
pub(crate) fn print(devices: &[Device]) {
    println!(
        "{:<3} {:<34} {:<7} {:<13} {:>11} {:>11} {:<6} {:<8} {:>12}",
        "#",
        "name",
        "backend",
        "type",
        "max buffer",
        "max binding",
        "int64",
        "subgroup",
        "pass points"
    );
    for d in devices {
        let i = d.info();
        let pass = d
            .pass_capacity(&Default::default())
            .map_or_else(|e| e.to_string(), |c| points(c.points));
        println!(
            "{:<3} {:<34} {:<7} {:<13} {:>8} MiB {:>8} MiB {:<6} {:<8} {:>12}",
            i.index,
            truncate(&i.name, 34),
            i.backend,
            i.device_type,
            i.max_buffer_size >> 20,
            i.max_storage_binding >> 20,
            yes(i.shader_int64),
            yes(i.subgroup),
            pass
        );
    }
    for d in devices {
        match d.tuning() {
            Ok(t) => println!("tuning of #{}: {t}", d.index()),
            Err(e) => println!("tuning of #{}: {e}", d.index()),
        }
    }
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// A pass's points as `2^k` where they are a power of two (a budget can leave a pass
/// of other sizes), else in full.
fn points(n: usize) -> String {
    if n.is_power_of_two() {
        format!("2^{}", n.ilog2())
    } else {
        n.to_string()
    }
}
