//! Support: looking up any order on any network without touching the journal, support bundles (export with a
//! preview, redacted; import showing the timeline as the user saw it), and reproducing a quote field by field.

pub mod bundle;
pub mod lookup;
pub mod reproduce;

pub use bundle::*;
pub use lookup::*;
pub use reproduce::*;
