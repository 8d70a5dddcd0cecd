//! Criterion benchmark (written by its stage).
fn main() {}
