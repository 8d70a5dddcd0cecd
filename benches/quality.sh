#!/usr/bin/env bash
# The quality report: generates the default quality corpus (if missing) and
# scores `simdup scan` on it across the option grid; the Markdown report goes
# to stdout (progress to stderr).
#
# Usage: benches/quality.sh [DOCS [SEED]] [-- QUALITY-OPTIONS...]
#   (defaults: 5000 documents, seed 1; see `quality --help` for options,
#    e.g. -- --each-k, -- --min-features 8, -- --show-k 3,6,9,12)
# Environment: SIMDUP=path (default target/release/simdup, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

DOCS=5000
SEED=1
if [[ $# -gt 0 && $1 != -- ]]; then DOCS=$1; shift; fi
if [[ $# -gt 0 && $1 != -- ]]; then SEED=$1; shift; fi
if [[ $# -gt 0 && $1 == -- ]]; then shift; fi
SIMDUP=${SIMDUP:-target/release/simdup}
CORPUS=target/quality-corpus-$DOCS-$SEED

if [[ "$SIMDUP" == target/release/simdup ]]; then
    cargo build --release --quiet --bin simdup
fi
cargo build --release --quiet -p simdup-bench-tools --bin gen-corpus --bin quality
if [[ ! -f "$CORPUS/manifest.json" ]]; then
    target/release/gen-corpus --docs "$DOCS" --seed "$SEED" --no-files --out "$CORPUS" --force
fi
exec target/release/quality --corpus "$CORPUS" --simdup "$SIMDUP" "$@"
