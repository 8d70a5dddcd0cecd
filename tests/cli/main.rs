//! CLI tests: one binary that runs the built `simdup` on fixtures and temp dirs.
