#!/usr/bin/env bash
# The scan step of the composite action (action.yml). Inputs come as
# INPUT_* variables; SIMDUP names the binary (default: simdup on PATH).
# The checking run prints in INPUT_FORMAT and decides the exit code; with
# INPUT_SUMMARY=true a Markdown table goes to $GITHUB_STEP_SUMMARY, and
# with INPUT_SARIF=FILE a SARIF log goes to FILE (each one more scan).
# Writes exit-code=N to $GITHUB_OUTPUT.
set -uo pipefail

simdup="${SIMDUP:-simdup}"
common=()
if [ -n "${INPUT_PATH:-}" ]; then
    read -ra paths <<< "$INPUT_PATH"
    common+=("${paths[@]}")
fi
if [ -n "${INPUT_THRESHOLD:-}" ]; then
    common+=(--threshold "$INPUT_THRESHOLD")
fi
if [ -n "${INPUT_BASELINE:-}" ]; then
    common+=(--baseline "$INPUT_BASELINE")
fi
if [ -n "${INPUT_ARGS:-}" ]; then
    read -ra extra <<< "$INPUT_ARGS"
    common+=("${extra[@]}")
fi

check=(scan "${common[@]}" --format "${INPUT_FORMAT:-github}")
if [ "${INPUT_FAIL_ON_DUPLICATES:-true}" = true ]; then
    check+=(--fail-on-duplicates)
fi
echo "simdup ${check[*]}" >&2
"$simdup" "${check[@]}"
status=$?

# The extra runs report; only their errors (exit 2) change the outcome
# (exit 1 may come from fail-on-duplicates in simdup.toml).
report() {
    "$simdup" "$@"
    if [ $? -ge 2 ]; then
        status=2
    fi
}
if [ "${INPUT_SUMMARY:-true}" = true ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    report scan "${common[@]}" --format markdown -q >> "$GITHUB_STEP_SUMMARY"
fi
if [ -n "${INPUT_SARIF:-}" ]; then
    report scan "${common[@]}" --format sarif -q > "$INPUT_SARIF"
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "exit-code=$status" >> "$GITHUB_OUTPUT"
fi
exit "$status"
