#!/usr/bin/env bash
# Runs `swift test` with the given arguments, keeps its whole output in $SWIFT_TEST_LOG
# (out/swift-test.log unless set), and
# when it fails ends with what failed: the failed expectations and, after a crash, the fatal error
# and the crashing thread's frames. A CI log often shows only its tail; this puts the cause there.
# A run that passes $SWIFT_TEST_MINUTES (20) is stopped, naming the tests still running: a hang
# must fail in minutes, not hold CI until its limit.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p out
log=${SWIFT_TEST_LOG:-out/swift-test.log}
minutes=${SWIFT_TEST_MINUTES:-20}
# timeout signals its whole process group: the test process goes with swift-test.
timeout --kill-after=10s "${minutes}m" "${SWIFT:-swift}" test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo
  echo "=== swift test ran past $minutes minutes and was stopped; tests started and not ended: ==="
  python3 - "$log" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
started = re.findall(r'◇ Test "(.*?)" started', text)
ended = set(re.findall(r'[✔✘↷] Test "(.*?)" (?:passed|failed|skipped|recorded)', text))
for name in dict.fromkeys(started):
    if name not in ended: print("  " + name)
PY
fi
if [ "$status" -ne 0 ]; then
  echo
  echo "=== swift test failed (exit $status); the whole output is in $log ==="
  grep -E '✘|Fatal error|Program crashed' "$log" | head -40
  grep -A 14 -E '^Thread [0-9]+ .* crashed:' "$log" | head -30
fi
exit "$status"
