#!/usr/bin/env bash
# Runs one fuzz target for a given time, with its seeds and dictionary:
#   fuzz/run.sh TARGET SECONDS [libFuzzer options...]
# Needs a nightly toolchain and cargo-fuzz. New inputs go to
# fuzz/corpus/TARGET, crashes to fuzz/artifacts/TARGET (both ignored by git).
set -euo pipefail
cd "$(dirname "$0")"
usage="usage: fuzz/run.sh TARGET SECONDS [libFuzzer options...]; targets: $(ls fuzz_targets | sed 's/\.rs$//' | tr '\n' ' ')"
target=${1:?$usage}
seconds=${2:?$usage}
shift 2
[[ -f fuzz_targets/$target.rs ]] || { echo "$usage" >&2; exit 2; }
mkdir -p "corpus/$target"
options=(-max_total_time="$seconds" -print_final_stats=1)
[[ -f dicts/$target.dict ]] && options+=(-dict="$PWD/dicts/$target.dict")
exec cargo +nightly fuzz run --release "$target" "$PWD/corpus/$target" "$PWD/seeds/$target" -- "${options[@]}" "$@"
