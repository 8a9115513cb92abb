//! The browser's portable MSM program (web/src/portable.rs: `Device::all_async` and the
//! `*_async` calls only), compiled natively from the same source and run on this
//! machine's GPU against arkworks. The browser tests (web/tests/browser.rs) run it in
//! headless Chromium.

#[path = "../web/src/portable.rs"]
mod portable;

#[test]
fn portable_program_matches_arkworks_natively() {
    let seed = 28;
    let o = pollster::block_on(portable::run(seed, 1 << 12))
        .unwrap_or_else(|e| panic!("no device (seed {seed}): {e}"));
    assert!(
        o.failures.is_empty(),
        "{} failures:\n{}",
        o.failures.len(),
        o.failures.join("\n")
    );
    assert!(o.passed.len() > 20, "{:?}", o.passed);
}
