//! CLI tests: one binary that runs the built `simdup` on fixtures and
//! temporary directories (one test binary links once, which matters on
//! two cores).

mod action;
mod ci;
mod compare;
mod completions;
mod config;
mod decompress;
mod dedup;
mod distributed;
mod explain;
mod fdupes;
mod fingerprint;
mod groups;
mod help_examples;
mod index;
mod input_rules;
mod inputs;
mod prose;
mod readable;
mod readme;
mod record_fields;
mod scan;
mod util;
