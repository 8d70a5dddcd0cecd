//! The command-line layer.
