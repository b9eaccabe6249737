#!/usr/bin/env bash
# Runs `swift test` with the given arguments, keeps its whole output in $SWIFT_TEST_LOG
# (out/swift-test.log unless set), and
# when it fails ends with what failed: the failed expectations and, after a crash, the fatal error
# and the crashing thread's frames. A CI log often shows only its tail; this puts the cause there.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p out
log=${SWIFT_TEST_LOG:-out/swift-test.log}
"${SWIFT:-swift}" test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo
  echo "=== swift test failed (exit $status); the whole output is in $log ==="
  grep -E '✘|Fatal error|Program crashed' "$log" | head -40
  grep -A 14 -E '^Thread [0-9]+ .* crashed:' "$log" | head -30
fi
exit "$status"
