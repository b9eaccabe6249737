#!/bin/sh
# Checks each theme folder a change touches, as the server will read it, and fails only on
# problems that are new against BASE (a git ref): a pull request's CI passes `origin/main`, the
# pre-commit hook `HEAD`. Themes are the folders directly under THEMES (default: themes).
#
#   sh config/review/check-changed.sh BASE [--staged] [themed check options, e.g. --format github]
#
# Exit status: 0 when no theme has a new error, 1 when one has, 2 when a check could not read its
# input. A theme BASE does not have yet is checked whole.
set -u
base="${1:?usage: check-changed.sh BASE [--staged] [options]}"
shift
range="$base...HEAD"
if [ "${1:-}" = "--staged" ]; then
    range="--cached"
    shift
fi
themes="${THEMES:-themes}"
# No commit yet (a repository's first): nothing to compare with, every problem is new.
if git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then since="--since $base"; else since=""; range="--cached"; fi
status=0
for theme in $(git diff --name-only --diff-filter=ACMR $range -- "$themes" | sed -n "s#^$themes/\([^/]*\)/.*#$themes/\1#p" | sort -u); do
    [ -d "$theme" ] || continue
    themed check "$theme" $since "$@"
    result=$?
    [ $result -gt $status ] && status=$result
done
exit $status
