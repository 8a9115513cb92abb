//! The clock the crate times itself with: `web_time::Instant`, which is
//! `std::time::Instant` on native targets and reads `performance.now()` in a browser
//! (std's panics on wasm32-unknown-unknown).

pub(crate) use web_time::Instant;
