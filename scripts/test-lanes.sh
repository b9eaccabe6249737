#!/usr/bin/env bash
# Runs the checks of `make test` in lanes side by side, each argument a lane:
#
#     scripts/test-lanes.sh "openapi:openapi-check exports:exports-check" "deb:deb-test-tested"
#
# A lane's steps (NAME:TARGET, a make target) run one after another through scripts/test-step.sh
# and the lane stops at the first that fails, as make would. Most checks are one process that
# waits on one core (kotlinc, lintian, the linker, a browser), so two lanes share the machine's
# two cores. A lane's output is kept in out/lane-N.log and printed whole when the lane ends: the
# lanes' lines never interleave. Exits 1 when any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p out
declare -A lanes
number=0
for lane in "$@"; do
  number=$((number + 1))
  (
    for step in $lane; do
      scripts/test-step.sh "${step%%:*}" "${MAKE:-make}" --no-print-directory "${step#*:}" || exit 1
    done
  ) > "out/lane-$number.log" 2>&1 &
  lanes[$!]=$number
done
status=0
while [ "${#lanes[@]}" -gt 0 ]; do
  wait -n -p ended "${!lanes[@]}" || status=1
  number=${lanes[$ended]}
  unset "lanes[$ended]"
  echo "=== lane $number: ${!number} ==="
  cat "out/lane-$number.log"
done
exit "$status"
