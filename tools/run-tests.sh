#!/usr/bin/env bash
# run-tests.sh: run the whole bats suite (every test/*.bats), two tests at a
# time when GNU parallel is there, and end with one summary line:
#   bats: N passed, N failed, N skipped
# Exit status: bats's.
#
# Environment (see test/test_helper.bash): NPX_BUILD (default build/), CC,
# CFLAGS (passed to npxc --exe), NPX_SAN (sanitizer round), PYTHON.
# Arguments are passed to bats, e.g. tools/run-tests.sh --filter bincount.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
export NPX_BUILD=${NPX_BUILD:-$PWD/build}

jobs=()
if command -v parallel >/dev/null 2>&1; then
    jobs=(--jobs 2)
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# TAP output, so the log reads the same on a terminal and in CI; the failures'
# output comes as "# " lines under each "not ok".
bats --formatter tap "${jobs[@]}" "$@" test/ | tee "$log"
status=${PIPESTATUS[0]}

passed=$(grep -Ec '^ok [0-9]+ ' "$log" | tr -d ' ')
skipped=$(grep -Ec '^ok [0-9]+ .*# skip' "$log" | tr -d ' ')
failed=$(grep -Ec '^not ok [0-9]+ ' "$log" | tr -d ' ')
echo "bats: $((passed - skipped)) passed, $failed failed, $skipped skipped"
exit "$status"
