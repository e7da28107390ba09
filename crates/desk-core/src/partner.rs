//! Partner: affiliate entries applied to quotes, and the dashboard of volume and affiliate earnings.
