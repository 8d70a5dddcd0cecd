//! Fuzz target: see `simdup::fuzzing::markup` for the invariants checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| simdup::fuzzing::markup(data));
