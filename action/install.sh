#!/usr/bin/env bash
# Installs simdup for the composite action (action.yml): built with cargo
# from the action's own checkout, so the binary matches the action's ref.
# A simdup already on PATH is used as is (set SIMDUP_REINSTALL=1 to build
# anyway).
set -euo pipefail

if command -v simdup >/dev/null 2>&1 && [ -z "${SIMDUP_REINSTALL:-}" ]; then
    echo "simdup already installed: $(simdup --version)"
    exit 0
fi
if ! command -v cargo >/dev/null 2>&1; then
    echo "::error title=simdup::cargo is needed to build simdup (add a Rust toolchain step first, e.g. dtolnay/rust-toolchain@stable)"
    exit 2
fi
root="${RUNNER_TEMP:-/tmp}/simdup"
cargo install --locked --quiet --path "${GITHUB_ACTION_PATH:?}" --root "$root"
echo "$root/bin" >> "${GITHUB_PATH:?}"
"$root/bin/simdup" --version
