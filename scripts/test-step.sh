#!/usr/bin/env bash
# Runs one step of `make test` (a command and its arguments after NAME) and records in
# out/test-steps.tsv its name, its status, how long it took and the last line it printed, for
# the summary `scripts/test-summary.py` prints at the end. The step's output goes through as it is.
set -uo pipefail
cd "$(dirname "$0")/.."
name=$1; shift
mkdir -p out
started=$(date +%s.%N)
output=$(mktemp)
"$@" 2>&1 | tee "$output"
status=${PIPESTATUS[0]}
ended=$(date +%s.%N)
last=$(grep -v '^[[:space:]]*$' "$output" | tail -n 1 | tr '\t' ' ' | cut -c1-200)
rm -f "$output"
seconds=$(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }')
printf '%s\t%s\t%s\t%s\n' "$name" "$status" "$seconds" "$last" >> out/test-steps.tsv
exit "$status"
