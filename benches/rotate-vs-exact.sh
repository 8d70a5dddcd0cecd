#!/usr/bin/env bash
# Rotate (window W) against the exact search on random fingerprints with 1%
# planted pairs within 1..=k bits (benches/search_data): the search's own
# seconds for each, and rotate's recall of the exact pairs, as a Markdown
# table: the figures of docs/SEARCH.md ("Rotate against exact").
#
# Usage: benches/rotate-vs-exact.sh [SIZES [KS]]
#   SIZES: fingerprint counts (default "100000 1000000 10000000")
#   KS:    radii (default "3 6 9 12")
# Environment: WINDOW (default 8), SKIP="N:K ..." pairs not to run (default
# "10000000:12": about five minutes of exact search on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${1:-100000 1000000 10000000}
KS=${2:-3 6 9 12}
WINDOW=${WINDOW:-8}
SKIP=${SKIP:-10000000:12}

cargo build --release --quiet --bench search_scale
BIN=$(ls -t target/release/deps/search_scale-* | grep -v '\.d$' | head -1)

echo "| n | k | exact pairs | exact, s | rotate W=$WINDOW, s | rotate recall |"
echo "|---:|---:|---:|---:|---:|---:|"
for n in $SIZES; do
    for k in $KS; do
        if [[ " $SKIP " == *" $n:$k "* ]]; then
            continue
        fi
        out=$(SIMDUP_N=$n SIMDUP_K=$k SIMDUP_METHOD=rotate SIMDUP_WINDOW=$WINDOW SIMDUP_RECALL=1 "$BIN")
        rotate=$(sed -n 's/.* seconds=\([0-9.]*\) .*/\1/p' <<<"$out" | head -1)
        recall=$(sed -n 's/^recall=\([0-9.]*\) .*/\1/p' <<<"$out")
        pairs=$(sed -n 's/^recall=[0-9.]* ([0-9]* of \([0-9]*\) exact pairs).*/\1/p' <<<"$out")
        exact=$(sed -n 's/.*exact_seconds=\([0-9.]*\).*/\1/p' <<<"$out")
        echo "| $n | $k | $pairs | $exact | $rotate | $recall |"
    done
done
