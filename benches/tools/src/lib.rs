//! Measurement instruments for simdup.
