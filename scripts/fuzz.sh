#!/usr/bin/env bash
# `make fuzz`: every fuzz target under libFuzzer for FUZZ_SECONDS each, from seed corpora (the
# targets' own seeds, plus the shared corpus catalogs for the catalog and BOM readers). Prints
# each target's executions; any crash is kept under var/fuzz/ and fails the run (copy the input
# to Tests/FuzzRegressionTests/Inputs/TARGET/ once fixed, so it stays a regression test).
# FUZZ_RUNS and FUZZ_SEED make a run repeatable (CI): the same seed gives the same mutations, so
# CI fails only when the code changed, not by the luck of the draw.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZER=${FUZZER:-.build-fuzz/release/themed-fuzz}
SECONDS_PER_TARGET=${1:-60}
CORPUS=${CORPUS:-../shared/corpus}
work=var/fuzz
mkdir -p "$work"
"$FUZZER" seeds "$work/seeds"
# The shared corpus's small catalogs (up to 40 KB) seed the catalog and BOM readers: big
# inputs make every execution slow.
if [ -d "$CORPUS/car" ]; then
  mkdir -p "$work/seeds/catalog" "$work/seeds/bom"
  find "$CORPUS/car" -name '*.car' -size -41k -exec cp {} "$work/seeds/catalog/" \;
  cp "$work"/seeds/catalog/*.car "$work/seeds/bom/" 2>/dev/null || true
fi

repeatable=()
[ -n "${FUZZ_RUNS:-}" ] && repeatable+=("-runs=$FUZZ_RUNS")
[ -n "${FUZZ_SEED:-}" ] && repeatable+=("-seed=$FUZZ_SEED")
failed=0
printf '%-14s %14s %10s  %s\n' target executions "exec/s" result
for target in $("$FUZZER" list | cut -f1); do
  mkdir -p "$work/corpus/$target" "$work/seeds/$target"
  log="$work/$target.log"
  # Foundation's property-list reader leaks a CFError on every malformed input (not ours to fix):
  # leak detection is off for the two targets that go through it.
  case "$target" in stringsdict|infoplist) leaks=0 ;; *) leaks=1 ;; esac
  if ASAN_OPTIONS="detect_leaks=$leaks" "$FUZZER" "$target" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 -max_len=262144 -detect_leaks=$leaks \
       "${repeatable[@]}" -print_final_stats=1 -artifact_prefix="$work/$target-" "$work/corpus/$target" "$work/seeds/$target" >"$log" 2>&1; then
    result=ok
  else
    result="CRASH (see $log and $work/$target-*)"
    failed=1
  fi
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
  rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log" | tail -1)
  printf '%-14s %14s %10s  %s\n' "$target" "${runs:-?}" "${rate:-?}" "$result"
done
exit $failed
