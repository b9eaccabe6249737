#!/usr/bin/env bash
# Starts a step of `make test` in the background, or waits for one started so:
#
#     scripts/in-background.sh NAME COMMAND [ARGUMENTS...]   # starts it; returns at once
#     scripts/in-background.sh --wait NAME                   # prints its output, exits with its status
#
# `make test` installs what its checks need while the tests build: the install waits on the
# network and dpkg, the build on the cores. Its output is kept in out/NAME.log until it is waited for.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p out
if [ "${1:-}" = "--wait" ]; then
  name=${2:?usage: in-background.sh --wait NAME}
  [ -e "out/$name.log" ] || { echo "in-background: $name was not started"; exit 1; }
  while [ ! -e "out/$name.status" ]; do sleep 1; done
  cat "out/$name.log"
  exit "$(cat "out/$name.status")"
fi
name=${1:?usage: in-background.sh NAME COMMAND [ARGUMENTS...]}; shift
rm -f "out/$name.status"
# All of its output to the log, none to the caller's: a pipe the caller reads is not held open.
( "$@"; echo $? > "out/$name.status.new"; mv "out/$name.status.new" "out/$name.status" ) < /dev/null > "out/$name.log" 2>&1 &
