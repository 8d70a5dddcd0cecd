#!/usr/bin/env bash
# Times simdup on a generated corpus against its floors (`cat` of every
# file, `wc -w` of the JSON Lines in the C locale and in a UTF-8 one: GNU
# wc's speed depends on the locale), with a warm page cache: median wall time
# of several runs, MB/s, documents/s and peak memory (max RSS) of each
# step: fingerprinting alone, the default (verified) scan and --raw, from
# files and from JSON Lines, and a scan with `--cache` made afresh, then
# again with nothing changed.
#
# Usage: benches/time-cli.sh [DOCS [RUNS]]     (defaults: 100000 documents, 5 runs)
# Environment:
#   SIMDUP=path        simdup binary (default target/release/simdup, built if missing)
#   CORPUS=dir         corpus folder (default target/bench-corpus-DOCS-SEED)
#   SEED=n             corpus seed (default 1)
#   SCAN_ARGS=...      extra arguments for `simdup scan` (default none)
#   FP_ARGS=...        extra arguments for `simdup fingerprint` (default none)
#
# Needs GNU time for peak memory: /usr/bin/time (Debian/Ubuntu:
# `apt-get install -y time`). Uses hyperfine for the timings if it is
# installed (`apt-get install -y hyperfine`), else a plain loop.
set -euo pipefail
cd "$(dirname "$0")/.."

DOCS=${1:-100000}
RUNS=${2:-5}
SEED=${SEED:-1}
SIMDUP=${SIMDUP:-target/release/simdup}
CORPUS=${CORPUS:-target/bench-corpus-$DOCS-$SEED}
SCAN_ARGS=${SCAN_ARGS:-}
FP_ARGS=${FP_ARGS:-}

source benches/common.sh
need_gnu_time time-cli
UTF8_LOCALE=$(utf8_locale)
build_simdup
if [[ ! -f "$CORPUS/manifest.json" ]]; then
    cargo run --release --quiet -p simdup-bench-tools --bin gen-corpus -- \
        --docs "$DOCS" --seed "$SEED" --out "$CORPUS" --force
fi
BYTES=$(sed -n 's/^  "bytes": \([0-9]*\),$/\1/p' "$CORPUS/manifest.json")
NDOCS=$(sed -n 's/^  "docs": \([0-9]*\),$/\1/p' "$CORPUS/manifest.json")

# Warm the page cache, so every step reads from memory.
find "$CORPUS/docs" -type f -print0 | xargs -0 cat >/dev/null

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# measure NAME COMMAND: prints one table row.
measure() {
    local name=$1 cmd=$2 secs rss loops=$RUNS
    # With hyperfine the loop is only for peak memory: one run is enough.
    if command -v hyperfine >/dev/null; then loops=1; fi
    if ! time_runs "$loops" "$cmd" /dev/null; then
        printf '| %-12s | failed (%s): %s |\n' "$name" "$(head -n 1 "$TMP/one")" "$(head -c 200 "$TMP/stderr" | tr '\n' ' ')"
        return
    fi
    if command -v hyperfine >/dev/null; then
        hyperfine --style none --warmup 1 --runs "$RUNS" -i --export-csv "$TMP/h.csv" "$cmd" >/dev/null 2>&1
        secs=$(awk -F, 'NR == 2 { print $4 }' "$TMP/h.csv") # column 4: median
    else
        secs=$(median <"$TMP/secs")
    fi
    rss=$(median <"$TMP/rss")
    awk -v n="$name" -v s="$secs" -v b="$BYTES" -v d="$NDOCS" -v r="$rss" 'BEGIN {
        if (s <= 0) s = 0.005 # GNU time has 10 ms resolution
        printf "| %-12s | %8.2f | %8.0f | %9.0f | %8.1f |\n", n, s, b / 1e6 / s, d / s, r / 1024
    }'
}

echo "Corpus: $NDOCS documents, $(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB ($CORPUS), seed $SEED;" \
    "median of $RUNS runs, warm cache, $(nproc) cores, $(command -v hyperfine >/dev/null && echo hyperfine || echo plain loop)."
echo
echo "| step         | median s |     MB/s |    docs/s | peak MB  |"
echo "|--------------|---------:|---------:|----------:|---------:|"
measure "cat (floor)" "find '$CORPUS/docs' -type f -print0 | xargs -0 cat"
measure "fingerprint" "'$SIMDUP' fingerprint $FP_ARGS '$CORPUS/docs'"
measure "scan" "'$SIMDUP' scan $SCAN_ARGS '$CORPUS/docs'"
measure "scan --raw" "'$SIMDUP' scan --raw $SCAN_ARGS '$CORPUS/docs'"
# `wc -w` splits words by the locale's rules, on one path for single-byte
# locales and another for multibyte ones, and their speeds differ (GNU
# coreutils 9.1 on Debian 12: the UTF-8 one 1.7 times as fast), so each
# is timed with its locale named.
measure "wc -w C" "env LC_ALL=C wc -w '$CORPUS/corpus.jsonl'"
if [[ -n $UTF8_LOCALE ]]; then
    measure "wc -w UTF-8" "env LC_ALL=$UTF8_LOCALE wc -w '$CORPUS/corpus.jsonl'"
fi
measure "scan jsonl" "'$SIMDUP' scan --records jsonl --id-field id --text-field text $SCAN_ARGS < '$CORPUS/corpus.jsonl'"
measure "jsonl --raw" "'$SIMDUP' scan --raw --records jsonl --id-field id --text-field text $SCAN_ARGS < '$CORPUS/corpus.jsonl'"
# A scan cache: made afresh each run, then a re-scan with nothing changed.
measure "cache first" "rm -f '$TMP'/cache.db*; '$SIMDUP' scan $SCAN_ARGS --cache '$TMP/cache.db' '$CORPUS/docs'"
measure "cache again" "'$SIMDUP' scan $SCAN_ARGS --cache '$TMP/cache.db' '$CORPUS/docs'"
