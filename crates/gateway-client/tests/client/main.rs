//! gateway-client's integration tests, one module per subject, in one test binary: one link instead of three, and
//! their tests run side by side.

mod failures;
mod request_schema;
mod wire_2026;
mod wire_schema;
