//! Inputs kept on one device between calls: bases (a prover's SRS) and scalars, each
//! stored in segments of one binding.

pub(crate) mod bases;
pub(crate) mod scalars;
pub(crate) mod segments;
