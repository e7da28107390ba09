//! Support: bundle.
