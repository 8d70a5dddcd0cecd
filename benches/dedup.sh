#!/usr/bin/env bash
# Times `simdup dedup` on generated address-like records with planted
# near-copies (benches/gen-records.py) beside the exact-duplicate floors
# people compare it with, `sort -u` and `awk '!seen[$0]++'`: median wall
# time of several runs, MB/s, records/s, peak memory (max RSS) and the
# records kept.
#
# Usage: benches/dedup.sh [RECORDS [RUNS]]     (defaults: 1000000 records, 3 runs)
# Environment:
#   INPUT=file         time this file of lines instead (RECORDS is ignored),
#                      e.g. the real lines of benches/real/lines.sh
#   SIMDUP=path        simdup binary (default target/release/simdup, built if missing)
#   SEED=n             records seed (default 1)
#   KIND=logs          log-like lines instead of addresses (gen-records.py)
#   DEDUP_ARGS=...     extra arguments for `simdup dedup` (default none)
#
# Needs GNU time for peak memory: /usr/bin/time (`apt-get install -y time`).
set -euo pipefail
cd "$(dirname "$0")/.."

RECORDS=${1:-1000000}
RUNS=${2:-3}
SEED=${SEED:-1}
KIND=${KIND:-addresses}
SIMDUP=${SIMDUP:-target/release/simdup}
DEDUP_ARGS=${DEDUP_ARGS:-}
GENERATED=target/bench-records-$RECORDS-$SEED.txt
if [[ $KIND != addresses ]]; then
    GENERATED=target/bench-records-$KIND-$RECORDS-$SEED.txt
fi
INPUT=${INPUT:-$GENERATED}

source benches/common.sh
need_gnu_time dedup
build_simdup
if [[ $INPUT == "$GENERATED" && ! -f "$INPUT" ]]; then
    mkdir -p target
    python3 benches/gen-records.py "$RECORDS" "$SEED" "$KIND" >"$INPUT.part"
    mv "$INPUT.part" "$INPUT"
fi
RECORDS=$(wc -l <"$INPUT")
BYTES=$(wc -c <"$INPUT")
cat "$INPUT" >/dev/null # warm the page cache

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# measure NAME COMMAND: prints one table row; COMMAND writes the kept
# records to stdout.
measure() {
    local name=$1 cmd=$2
    if ! time_runs "$RUNS" "$cmd" "$TMP/out"; then
        printf '| %-16s | failed: %s |\n' "$name" "$(head -c 200 "$TMP/stderr" | tr '\n' ' ')"
        return
    fi
    awk -v n="$name" -v s="$(median <"$TMP/secs")" -v b="$BYTES" -v d="$RECORDS" \
        -v r="$(median <"$TMP/rss")" -v k="$(wc -l <"$TMP/out")" 'BEGIN {
        if (s <= 0) s = 0.005 # GNU time has 10 ms resolution
        printf "| %-16s | %8.2f | %7.1f | %9.0f | %7.1f | %9d |\n", n, s, b / 1e6 / s, d / s, r / 1024, k
    }'
    if [[ $name == simdup* ]]; then
        sed 's/^simdup: /  /' "$TMP/stderr" | tail -n 2 >>"$TMP/summaries"
    fi
}

echo "Input: $RECORDS records, $(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB ($INPUT);" \
    "median of $RUNS runs, warm cache, $(nproc) cores."
echo
echo "| command          | median s |    MB/s |  records/s | peak MB |      kept |"
echo "|------------------|---------:|--------:|-----------:|--------:|----------:|"
# In the C locale: sort compares bytes there, its fastest (in C.UTF-8,
# 1.4 times slower on this input); awk's speed does not depend on it.
measure "sort -u" "env LC_ALL=C sort -u '$INPUT'"
measure "awk !seen" "env LC_ALL=C awk '!seen[\$0]++' '$INPUT'"
measure "simdup dedup" "'$SIMDUP' dedup $DEDUP_ARGS '$INPUT'"
echo
echo "simdup's summaries:"
cat "$TMP/summaries" 2>/dev/null || true
