//! The MSM drivers, all built on one job core (`job`): `batch` for resident bases and
//! host scalars, `stream` for host bases streamed in chunks, `on_device` for resident
//! bases and resident scalars.

pub(crate) mod batch;
pub(crate) mod job;
pub(crate) mod on_device;
pub(crate) mod stream;
