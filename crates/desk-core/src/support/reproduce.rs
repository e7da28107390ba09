//! Support: reproduce.
