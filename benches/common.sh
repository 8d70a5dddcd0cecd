# Helpers shared by the timing scripts (time-cli.sh, index.sh, dedup.sh),
# sourced from the repository root after `set -euo pipefail`. They use
# $SIMDUP (the binary) and $TMP (a scratch folder).

# need_gnu_time NAME: exits 2, naming the script, unless GNU time (for
# peak memory) is installed.
need_gnu_time() {
    if [[ ! -x /usr/bin/time ]]; then
        echo "$1: GNU time is missing: install it with 'apt-get install -y time'" >&2
        exit 2
    fi
}

# build_simdup: builds the release binary when $SIMDUP is the default one.
build_simdup() {
    if [[ "$SIMDUP" == target/release/simdup ]]; then
        cargo build --release --quiet --bin simdup
    fi
}

# utf8_locale: the name of an installed UTF-8 locale (C.UTF-8 first), or
# nothing when there is none.
utf8_locale() {
    locale -a 2>/dev/null | grep -i -m 1 -x -E 'c\.utf-?8|en_us\.utf-?8' || true
}

# median: the median of the numbers on stdin, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# time_runs RUNS COMMAND OUT: runs COMMAND RUNS times under GNU time, its
# stdout to OUT and its stderr to $TMP/stderr; each run's seconds go to
# $TMP/secs and its peak memory (KB) to $TMP/rss, emptied first. Returns 1
# at the first run that fails ($TMP/one then says how).
time_runs() {
    local runs=$1 cmd=$2 out=$3 i
    : >"$TMP/secs"
    : >"$TMP/rss"
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -f '%e %M' -o "$TMP/one" bash -c "$cmd >$out 2>$TMP/stderr" || return 1
        tail -n 1 "$TMP/one" | awk '{ print $1 }' >>"$TMP/secs"
        tail -n 1 "$TMP/one" | awk '{ print $2 }' >>"$TMP/rss"
    done
}
