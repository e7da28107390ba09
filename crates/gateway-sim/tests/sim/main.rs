//! gateway-sim's integration tests, one module per subject, in one test binary: one link instead of seven, and their
//! tests run side by side. `support` is what they share.

mod support;

mod access;
mod cli;
mod conformance;
mod delivery;
mod evm_node;
mod orders;
mod quotes;
mod tamper;
mod v4;
