#!/usr/bin/env bash
# Writes the lines of real text for timing `simdup dedup` on a stream
# (benches/dedup.sh): every file of the Debian docs and the PyPI
# releases corpora (benches/real/build-corpora.py), in path order, one
# after the other: prose, changelogs, licences and source code, blank
# lines and repeated boilerplate as they come.
#
# Usage: benches/real/lines.sh [OUT]      (default target/real/lines.txt)
#   then: INPUT=target/real/lines.txt benches/dedup.sh
# Environment:
#   REAL=dir   where the corpora are (default target/real)
set -euo pipefail
cd "$(dirname "$0")/../.."

REAL=${REAL:-target/real}
OUT=${1:-$REAL/lines.txt}
for corpus in debian-docs pypi-releases; do
    if [[ ! -d $REAL/$corpus/docs ]]; then
        echo "lines.sh: $REAL/$corpus/docs is missing: run benches/real/build-corpora.py first" >&2
        exit 2
    fi
done
find "$REAL/debian-docs/docs" "$REAL/pypi-releases/docs" -type f -print0 |
    LC_ALL=C sort -z | xargs -0 cat >"$OUT.part"
mv "$OUT.part" "$OUT"
echo "$OUT: $(wc -l <"$OUT") lines, $(wc -c <"$OUT") bytes" >&2
