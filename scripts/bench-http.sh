#!/usr/bin/env bash
# `make bench-http`: wrk against themed's colour and image routes and against nginx serving the
# same bytes as static files, on loopback, in one run. Prints req/s and p99 for both and the ratio.
# Needs wrk and nginx (apt-get install wrk nginx-light); bounded: 10 s per measurement.
set -euo pipefail
cd "$(dirname "$0")/.."
THEMED=${THEMED:-.build/release/themed}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
PORT_THEMED=${PORT_THEMED:-18080}
PORT_NGINX=${PORT_NGINX:-18081}
work=$(mktemp -d)
cleanup() { [ -n "${themed_pid:-}" ] && kill "$themed_pid" 2>/dev/null; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

"$THEMED" serve --themes themes --db "$work/themed.sqlite" --blobs "$work/blobs" --port "$PORT_THEMED" >"$work/themed.log" 2>&1 &
themed_pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT_THEMED/healthz" >/dev/null && break; sleep 0.1; done

color_path="/themes/dark/colors/primary"
image_path="/themes/light/images/logo?scale=2&appearance=dark"
mkdir -p "$work/www"
curl -sf "http://127.0.0.1:$PORT_THEMED$color_path" >"$work/www/color.json"
curl -sf "http://127.0.0.1:$PORT_THEMED$image_path" >"$work/www/logo.png"

cat >"$work/nginx.conf" <<CONF
user root;
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  types { application/json json; image/png png; }
  server {
    listen 127.0.0.1:$PORT_NGINX;
    root $work/www;
    etag on;
    sendfile on;
    tcp_nopush on;
  }
}
CONF
nginx -c "$work/nginx.conf" -p "$work"
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT_NGINX/color.json" >/dev/null && break; sleep 0.1; done

measure() { # name url -> "req/s p99"
  local out; out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "$2")
  local rps; rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  local p99; p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  local errors; errors=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out")
  printf '%-22s %10s req/s   p99 %8s   %s\n' "$1" "$rps" "$p99" "$errors" >&2
  # p99 in microseconds, for the ratio
  echo "$rps $(awk '{ v = $1; if (v ~ /us$/) { sub(/us/, "", v); print v } else if (v ~ /ms$/) { sub(/ms/, "", v); print v * 1000 } else { sub(/s/, "", v); print v * 1e6 } }' <<<"$p99")"
}

echo "wrk -t2 -c$CONNECTIONS -d$DURATION on 127.0.0.1 (themed and nginx share the machine's 2 cores with wrk)" >&2
c_themed=$(measure "themed color JSON" "http://127.0.0.1:$PORT_THEMED$color_path")
c_nginx=$(measure "nginx color.json" "http://127.0.0.1:$PORT_NGINX/color.json")
i_themed=$(measure "themed image PNG" "http://127.0.0.1:$PORT_THEMED$image_path")
i_nginx=$(measure "nginx logo.png" "http://127.0.0.1:$PORT_NGINX/logo.png")
ratio() { # name themed nginx
  awk -v name="$1" -v a="$2" -v b="$3" 'BEGIN { split(a, t, " "); split(b, n, " ");
    printf "%s themed/nginx: req/s %.2fx, p99 %.2fx\n", name, t[1] / n[1], t[2] / n[2] }'
}
ratio color "$c_themed" "$c_nginx"
ratio image "$i_themed" "$i_nginx"
