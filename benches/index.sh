#!/usr/bin/env bash
# Times the stored corpus (`simdup index`, `scan --against`, `scan --cache`)
# on a generated corpus: DOCS documents of about 60 words, of which NEW are
# moved aside as the new documents and the rest are indexed.
#
# Prints the median wall time and peak memory (max RSS) of:
#   - `index add` of the stored documents (one run: it writes the index),
#     and the index's bytes per document;
#   - `scan NEW --against INDEX -k 0`: loading the index and fingerprinting
#     the new documents, with no search (the floor);
#   - `scan NEW --against INDEX`: the default, verified search;
#   - `scan NEW` alone;
#   - `scan STORED --cache CACHE` the first time (writing the cache) and
#     again (nothing changed).
#
# Usage: benches/index.sh [DOCS [NEW [RUNS]]]   (defaults: 1000000 1000 5)
# Environment: SIMDUP=path (default target/release/simdup, built if missing),
#   CORPUS=dir (default target/bench-index-DOCS).
# Needs GNU time: /usr/bin/time (`apt-get install -y time`).
set -euo pipefail
cd "$(dirname "$0")/.."

DOCS=${1:-1000000}
NEW=${2:-1000}
RUNS=${3:-5}
SIMDUP=${SIMDUP:-target/release/simdup}
CORPUS=${CORPUS:-target/bench-index-$DOCS}

source benches/common.sh
need_gnu_time index.sh
build_simdup
if [[ ! -d "$CORPUS/new" ]]; then
    cargo run --release --quiet -p simdup-bench-tools --bin gen-corpus -- \
        --docs "$DOCS" --median-words 60 --out "$CORPUS" --force
    mkdir -p "$CORPUS/new"
    # The first NEW files in walk order become the new documents; their
    # near-copies (clusters are spread over the tree) stay stored.
    find "$CORPUS/docs" -type f | sort >"$CORPUS/all-files"
    head -n "$NEW" "$CORPUS/all-files" | while read -r file; do
        mv "$file" "$CORPUS/new/"
    done
    rm "$CORPUS/all-files"
fi
STORED=$CORPUS/docs
DB=$CORPUS/index.db
CACHE=$CORPUS/cache.db

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# row NAME RUNS COMMAND: runs COMMAND RUNS times, prints median s and MB.
row() {
    local name=$1 runs=$2 cmd=$3
    time_runs "$runs" "$cmd" /dev/null ||
        { echo "index.sh: '$cmd' failed: $(head -c 300 "$TMP/stderr")" >&2; exit 1; }
    printf '| %-36s | %8.2f | %8.1f |\n' "$name" "$(median <"$TMP/secs")" \
        "$(median <"$TMP/rss" | awk '{ print $1 / 1024 }')"
}

find "$STORED" "$CORPUS/new" -type f -print0 | xargs -0 cat >/dev/null
stored=$(find "$STORED" -type f | wc -l)
echo "Corpus: $stored stored and $(find "$CORPUS/new" -type f | wc -l) new documents ($CORPUS); median of $RUNS runs, $(nproc) cores."
echo
echo "| step                                 | median s | peak MB  |"
echo "|--------------------------------------|---------:|---------:|"
rm -f "$DB" "$DB-wal" "$DB-shm" "$CACHE" "$CACHE-wal" "$CACHE-shm"
row "index add (once)" 1 "'$SIMDUP' index add -q '$STORED' --db '$DB'"
row "scan new --against index -k 0" "$RUNS" "'$SIMDUP' scan -q '$CORPUS/new' --against '$DB' -k 0"
row "scan new --against index" "$RUNS" "'$SIMDUP' scan -q '$CORPUS/new' --against '$DB'"
row "scan new" "$RUNS" "'$SIMDUP' scan -q '$CORPUS/new'"
row "scan stored --cache (first, writes)" 1 "'$SIMDUP' scan -q '$STORED' --cache '$CACHE'"
row "scan stored --cache (again)" "$RUNS" "'$SIMDUP' scan -q '$STORED' --cache '$CACHE'"
row "scan stored (no cache)" "$RUNS" "'$SIMDUP' scan -q '$STORED'"
echo
names=$(find "$STORED" -type f | awk '{ n += length($0) } END { print n }')
echo "Index: $(stat -c %s "$DB") bytes for $stored documents:" \
    "$(awk -v b="$(stat -c %s "$DB")" -v n="$names" -v d="$stored" 'BEGIN { printf "%.1f bytes a document beyond its name (names: %.1f bytes on average)", (b - n) / d, n / d }')."
