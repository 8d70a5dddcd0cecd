#!/usr/bin/env bash
# Scores simdup on the real-text corpora (benches/real/build-corpora.py)
# for a list of argument sets, and prints one Markdown table per corpus
# (progress and simdup's own messages go to stderr).
#
# Usage: benches/real/score-all.sh [ARGSETS-FILE]
#   ARGSETS-FILE: one set of simdup arguments a line, split at spaces (no
#   quoting), '#' comments (default benches/real/argsets.txt). Each set runs as
#   `simdup scan docs ARGS` in the corpus folder, or, for a corpus without
#   files (short-records), `simdup scan --records jsonl --id-field id
#   --text-field text ARGS` with corpus.jsonl on stdin. It must print pairs
#   as --format jsonl does; leave out -q, or the candidates column (from
#   simdup's summary line) stays empty. `{features}` in a set stands for
#   $FEATURES (below), e.g. `--shingle {features}`.
# Environment:
#   SIMDUP=path       simdup binary (default target/release/simdup, built first)
#   CORPORA=a,b       corpora (default debian-docs,debian-copyright,pypi-releases,short-records)
#   REAL=dir          where the corpora are (default target/real)
#   THRESHOLD=t       relevance: Jaccard >= t (default 0.8)
#   FEATURES=f        the Jaccard's features: words:1..3, chars:1..5 (default words:3)
#   VIEW=raw|text     the text the truth compares (default raw: corpus.jsonl as
#                     it is). text: the text view of markup files
#                     (benches/real/text-view.py, docs/MARKUP.md), what
#                     simdup's default `--markup text` compares; the truth and
#                     relevance come from the derived corpus REAL/NAME-text
#                     (written first when it is missing or older than its
#                     source or the script), while simdup still reads
#                     REAL/NAME/docs (or REAL/NAME-text/corpus.jsonl on stdin,
#                     for records: the same texts, records have no view).
#                     Its truth leaves out the pairs of two documents without
#                     words (`truth --no-empty-pairs`).
# A corpus without the truth file of FEATURES (truth-words3.jsonl, ...)
# gets one first (`truth`, floor 0.5).
set -euo pipefail
cd "$(dirname "$0")/../.."

ARGSETS=${1:-benches/real/argsets.txt}
SIMDUP=${SIMDUP:-target/release/simdup}
CORPORA=${CORPORA:-debian-docs,debian-copyright,pypi-releases,short-records}
REAL=${REAL:-target/real}
THRESHOLD=${THRESHOLD:-0.8}
FEATURES=${FEATURES:-words:3}
VIEW=${VIEW:-raw}
VIEWED=""
[[ $VIEW == text ]] && VIEWED=" (text view)"
if [[ $VIEW != raw && $VIEW != text ]]; then
    echo "score-all: VIEW=$VIEW: give raw or text" >&2
    exit 2
fi

if [[ "$SIMDUP" == target/release/simdup ]]; then
    cargo build --release --quiet --bin simdup
fi
cargo build --release --quiet -p simdup-bench-tools --bin truth --bin score
SIMDUP=$(realpath "$SIMDUP")
mapfile -t SETS < <(grep -v '^[[:space:]]*\(#\|$\)' "$ARGSETS")

echo "simdup: \`$("$SIMDUP" --version)\`; relevant: $FEATURES Jaccard >= $THRESHOLD$VIEWED;" \
    "$(nproc) cores; one run each, warm page cache; seconds and peak memory of the whole simdup run;" \
    "candidates: the pairs within k (simdup's summary line); pairs: those listed."
for corpus in ${CORPORA//,/ }; do
    dir=$REAL/$corpus
    if [[ ! -f $dir/corpus.jsonl ]]; then
        echo "score-all: $dir/corpus.jsonl is missing: run benches/real/build-corpora.py" >&2
        exit 2
    fi
    # The corpus the truth is made of and scored against.
    tdir=$dir
    if [[ $VIEW == text ]]; then
        tdir=$REAL/$corpus-text
        if [[ ! -f $tdir/corpus.jsonl || $tdir/corpus.jsonl -ot $dir/corpus.jsonl
            || $tdir/corpus.jsonl -ot benches/real/text-view.py ]]; then
            rm -f "$tdir"/truth-*.jsonl
            python3 benches/real/text-view.py "$dir" --out "$tdir"
        fi
    fi
    truth=$tdir/truth-${FEATURES/:/}.jsonl
    if [[ ! -f $truth ]]; then
        # The text view empties some files (an `.. include::` alone): simdup
        # never pairs a document without words, the truth would (Jaccard 1).
        empty=()
        [[ $VIEW == text ]] && empty=(--no-empty-pairs)
        target/release/truth --corpus "$tdir" --features "$FEATURES" "${empty[@]}"
    fi
    if [[ -d $dir/docs ]]; then
        input=(docs)
        # Warm the page cache, so the first run does not pay for the disk.
        find "$dir/docs" -type f -print0 | xargs -0 cat >/dev/null
    else
        input=(--records jsonl --id-field id --text-field text)
        cat "$dir/corpus.jsonl" >/dev/null
    fi
    echo
    echo "### $corpus${tdir#"$dir"}: $(target/release/score --corpus "$tdir" --truth "$truth" --threshold "$THRESHOLD" --describe)"
    echo
    echo "Input: \`${input[*]}\`."
    echo
    target/release/score --print-row-header
    for set in "${SETS[@]}"; do
        set=${set//\{features\}/$FEATURES}
        read -r -a args <<<"$set"
        echo "score-all: $corpus: $set" >&2
        target/release/score --corpus "$tdir" --cwd "$dir" --truth "$truth" --threshold "$THRESHOLD" \
            --format row --label="$set" -- "$SIMDUP" scan "${input[@]}" "${args[@]}"
    done
done
