//! Support: lookup.
