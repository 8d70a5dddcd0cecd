#!/usr/bin/env bash
# Regenerates every file in completions/ from the current CLI definitions.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet
# Where cargo put it: CARGO_TARGET_DIR when set (relative to the root).
bin="${CARGO_TARGET_DIR:-target}/debug/simdup"
"$bin" completions bash > completions/simdup.bash
"$bin" completions zsh > completions/_simdup
"$bin" completions fish > completions/simdup.fish
"$bin" completions elvish > completions/simdup.elv
"$bin" completions powershell > completions/_simdup.ps1
"$bin" man > completions/simdup.1
