//! Device memory of the MSM: pooled input slots and the host-visible upload buffers
//! behind them, the threads that convert inputs into those buffers, the working buffers
//! of a pass, and the pools that keep both across calls.

pub(crate) mod arena;
pub(crate) mod pool;
pub(crate) mod staging;
pub(crate) mod upload;
pub(crate) mod working;
