//! `wgpu-msm`: the main job. With no arguments it lists the devices, then runs and
//! verifies one 2^16 MSM on each device (and on all of them together) and prints a table.
//! `list`, `bench`, `parity` and `transfer` are the other commands (`--help`).

mod cli;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    match cli::run() {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
