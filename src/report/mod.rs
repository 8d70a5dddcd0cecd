//! The report stage.
