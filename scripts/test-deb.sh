#!/usr/bin/env bash
# `make deb-test`: checks a package made by `make deb`.
#   1. lintian: no errors or warnings (the package's overrides are documented in it);
#   2. unpacked into a scratch root (dpkg -x): the files are where the unit and config expect;
#   3. the packaged binary reports the package's version, accepts the packaged config and serves
#      the sample themes from the scratch root;
#   4. systemd-analyze verify is clean on the packaged unit (when systemd is present).
set -euo pipefail
cd "$(dirname "$0")/.."
deb=${1:?usage: test-deb.sh PACKAGE.deb}
fail() { echo "deb-test: $*" >&2; exit 1; }

echo "== lintian"
lintian --fail-on error,warning --display-level ">=warning" "$deb" 2>&1 | grep -v "running with root privileges" || true
lintian --fail-on error,warning "$deb" >/dev/null 2>&1 || fail "lintian reports errors or warnings"

scratch=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$scratch"' EXIT
root="$scratch/root"
dpkg -x "$deb" "$root"
for path in usr/bin/themed lib/systemd/system/themed.service etc/themed/themed.json var/lib/themed/themes usr/share/doc/themed/copyright; do
  [ -e "$root/$path" ] || fail "$path is missing from the package"
done

echo "== version"
version=$(dpkg-deb -f "$deb" Version)
reported=$("$root/usr/bin/themed" --version)
[ "$reported" = "$version" ] || fail "themed --version says '$reported', the package '$version'"
echo "themed --version: $reported"

echo "== the packaged config, moved into the scratch root"
cp -r themes/. "$root/var/lib/themed/themes/"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed -e "s#/var/lib/themed#$root/var/lib/themed#g" -e "s#\"port\": 8080#\"port\": $port#" "$root/etc/themed/themed.json" > "$scratch/themed.json"
"$root/usr/bin/themed" config check "$scratch/themed.json"

echo "== serving the sample themes"
"$root/usr/bin/themed" serve --config "$scratch/themed.json" >"$scratch/out.log" 2>"$scratch/err.log" &
server=$!
for _ in $(seq 100); do
  curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { cat "$scratch/err.log"; fail "themed exited at start"; }
  sleep 0.1
done
themes=$(curl -fs "http://127.0.0.1:$port/themes") || fail "GET /themes failed"
echo "$themes" | python3 -c 'import json, sys; names = [t["name"] for t in json.load(sys.stdin)["themes"]]; assert names == ["brand", "dark", "light", "tokens"], names; print("themes:", names)'
colour=$(curl -fs "http://127.0.0.1:$port/themes/light/colors" | python3 -c 'import json, sys; print(json.load(sys.stdin)["colors"][0]["name"])')
curl -fsi "http://127.0.0.1:$port/themes/light/colors/$colour" | grep -i '^etag: "' >/dev/null || fail "no ETag on a colour"
echo "colour $colour: 200 with an ETag"
[ -s "$root/var/lib/themed/themed.sqlite" ] || fail "no index under the scratch /var/lib/themed"
head -1 "$scratch/err.log" | python3 -c 'import json, sys; record = json.loads(sys.stdin.readline()); assert {"time", "level", "message"} <= set(record), record; print("logs: JSON lines")'
kill -TERM "$server"
wait "$server" || fail "themed did not exit cleanly on SIGTERM"
server=""

if command -v systemd-analyze >/dev/null; then
  echo "== systemd-analyze verify"
  # The unit as packaged, with the binary it starts at its unpacked path.
  sed "s#/usr/bin/themed#$root/usr/bin/themed#" "$root/lib/systemd/system/themed.service" > "$scratch/themed.service"
  output=$(systemd-analyze verify "$scratch/themed.service" 2>&1) || fail "systemd-analyze verify: $output"
  [ -z "$output" ] || fail "systemd-analyze verify: $output"
  echo "clean"
else
  echo "== systemd-analyze verify: SKIPPED (systemd not installed)"
fi
echo "deb-test: ok"
