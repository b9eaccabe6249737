#!/usr/bin/env python3
"""`make bench-http`: themed's cached answers under wrk, against the pinned baseline build, nginx
serving the same bytes, and a canned-response server (the machine's ceiling), in one run.

The ceiling is measured twice: `ceiling` sends themed's own answer byte for byte (its whole head:
ETag, Vary, Surrogate-Key, xkey, Content-Location, CORS, the request id; what this answer can cost
at best on this machine), `ceiling-short` the same body behind a 130-byte head (what a server that
says less could do; wrk, on the same cores, parses every byte).

Each round measures every server once per route, in turn, starting with another server each
round (interleaved, so that a slower minute of the machine touches all of them alike); a ratio is
the median of the rounds' ratios, a p99 the median of the rounds' p99s. Also measured:
themed with its access log on against off, and `ab -k` (HTTP/1.0 keep-alive) against nginx.

The baseline is a build of another revision (BASELINE, the pinned one of docs/PERFORMANCE.md by
default), made once with `git worktree` under var/baseline/REV and kept there.

Prints a table, every ratio, and the docs/PERFORMANCE.md row for this run. Bounded: ROUNDS rounds
of DURATION seconds per server and route, on loopback only.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLOR_PATH = "/themes/dark/colors/primary"
# A design token of the sample token theme, kept like a colour (issue 43: >= 0.9x the colour route).
TOKEN_PATH = "/themes/tokens/tokens/semantic.accent"
# A client's assignment, each request from another client id (issue 44: >= 0.5x the colour route).
# wrk's threads share the cores with the servers: the request is three strings joined, not
# wrk.format's table walk, so the client's own work weighs on the ratio as little as it can.
ASSIGN_SCRIPT = r"""
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("prefix", "GET /assign/current?client=bench-" .. threads .. "-")
end
local counter = 0
local suffix = "&platform=ios&appVersion=5.3.1&locale=fr-CA HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
request = function()
  counter = counter + 1
  return prefix .. counter .. suffix
end
"""
IMAGE_PATH = "/themes/light/images/logo?scale=2&appearance=dark"


def run(command, **kwargs):
    return subprocess.run(command, check=True, text=True, **kwargs)


def wait_for(url, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                return answer.read()
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"bench-http: nothing answered {url} within {seconds} s")


def fetch(url):
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.read()


def raw_response(port, path):
    """themed's whole answer to `path` (head and body) as a client receives it."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := connection.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    # The copy is answered on kept-alive connections: drop the Connection line this request asked for.
    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"connection:")]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def baseline_binary(revision):
    """The themed binary of `revision`, built once under var/baseline/<commit>."""
    commit = run(["git", "-C", ROOT, "rev-parse", "--verify", revision + "^{commit}"], capture_output=True).stdout.strip()
    folder = os.path.join(ROOT, "var", "baseline", commit)
    binary = os.path.join(folder, ".build", "release", "themed")
    if os.path.exists(binary):
        return commit, binary
    print(f"building the baseline {commit[:10]} once in {folder} (kept for later runs)", file=sys.stderr)
    if not os.path.isdir(folder):
        run(["git", "-C", ROOT, "worktree", "add", "--detach", folder, commit], stdout=subprocess.DEVNULL)
    run(["swift", "build", "-c", "release", "--product", "themed"], cwd=folder)
    return commit, binary


class Servers:
    """Every server of the run, started once and stopped at exit."""

    def __init__(self, work):
        self.work = work
        self.processes = []

    def start(self, command, log, **kwargs):
        process = subprocess.Popen(command, stdout=open(log, "w"), stderr=subprocess.STDOUT, **kwargs)
        self.processes.append(process)
        return process

    def stop(self):
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()

    def themed(self, binary, port, name, extra=()):
        data = os.path.join(self.work, name)
        os.makedirs(data, exist_ok=True)
        command = [binary, "serve", "--themes", os.path.join(ROOT, "themes"), "--db", os.path.join(data, "themed.sqlite"),
                   "--port", str(port), *extra]
        self.start(command, os.path.join(self.work, name + ".log"), cwd=data)
        wait_for(f"http://127.0.0.1:{port}/healthz")

    def nginx(self, port, www):
        conf = os.path.join(self.work, "nginx.conf")
        with open(conf, "w") as file:
            file.write(f"""user root;
worker_processes auto;
pid {self.work}/nginx.pid;
error_log {self.work}/nginx-error.log;
daemon off;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  types {{ application/json json; image/png png; }}
  server {{
    listen 127.0.0.1:{port};
    root {www};
    etag on;
    sendfile on;
    tcp_nopush on;
  }}
}}
""")
        self.start(["nginx", "-c", conf, "-p", self.work], os.path.join(self.work, "nginx.log"))
        wait_for(f"http://127.0.0.1:{port}/color.json")

    def canned(self, binary, port, file, content_type=None):
        """The canned server answering with `file`: a body behind a short head, or with no content
        type a whole response."""
        command = [binary, str(port), str(os.cpu_count() or 2), file] + ([content_type] if content_type else [])
        self.start(command, os.path.join(self.work, f"canned-{port}.log"))
        wait_for(f"http://127.0.0.1:{port}/")


def wrk(url, duration, connections, script=None):
    """(requests per second, p99 in ms, failures) of one wrk run (`script`: a Lua file making each request)."""
    out = run(["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency"] + (["-s", script] if script else []) + [url],
              capture_output=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    failures = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if errors:
        failures += sum(int(n) for n in errors.groups())
    return rate, float(p99.group(1)) * scale, failures


def ab(url, requests, concurrency):
    """Requests per second of `ab -k` (HTTP/1.0 with keep-alive)."""
    out = run(["ab", "-q", "-k", "-n", str(requests), "-c", str(concurrency), url], capture_output=True).stdout
    failed = int(re.search(r"Failed requests:\s+(\d+)", out).group(1))
    non2xx = re.search(r"Non-2xx responses:\s+(\d+)", out)
    keepalive = int(re.search(r"Keep-Alive requests:\s+(\d+)", out).group(1))
    rate = float(re.search(r"Requests per second:\s+([\d.]+)", out).group(1))
    return rate, failed + (int(non2xx.group(1)) if non2xx else 0), keepalive


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--themed", default=os.path.join(ROOT, ".build/release/themed"))
    parser.add_argument("--baseline", default=os.environ.get("BASELINE") or "", help="revision to compare with (empty: none)")
    parser.add_argument("--rounds", type=int, default=int(os.environ.get("ROUNDS", 3)))
    parser.add_argument("--duration", type=int, default=int(os.environ.get("DURATION", 6)))
    parser.add_argument("--connections", type=int, default=int(os.environ.get("CONNECTIONS", 64)))
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="bench-http-")
    servers = Servers(work)
    try:
        canned = os.path.join(work, "canned-server")
        run(["cc", "-O2", "-pthread", "-o", canned, os.path.join(ROOT, "scripts", "canned-server.c")])
        baseline = baseline_binary(args.baseline) if args.baseline else None

        ports = {"themed": 18080, "baseline": 18081, "nginx": 18082, "themed+log": 18083, "ceiling": 18084, "ceiling-png": 18085,
                 "short": 18086, "short-png": 18087}
        servers.themed(args.themed, ports["themed"], "themed")
        servers.themed(args.themed, ports["themed+log"], "themed-log", ["--access-log", os.path.join(work, "access.log")])
        if baseline:
            servers.themed(baseline[1], ports["baseline"], "baseline")
        www = os.path.join(work, "www")
        os.makedirs(www)
        bodies = {"color": fetch(f"http://127.0.0.1:{ports['themed']}{COLOR_PATH}"),
                  "image": fetch(f"http://127.0.0.1:{ports['themed']}{IMAGE_PATH}")}
        for name, file in [("color", "color.json"), ("image", "logo.png")]:
            with open(os.path.join(www, file), "wb") as out:
                out.write(bodies[name])
        servers.nginx(ports["nginx"], www)
        for name, path, port in [("color", COLOR_PATH, ports["ceiling"]), ("image", IMAGE_PATH, ports["ceiling-png"])]:
            copy = os.path.join(work, f"{name}.response")
            with open(copy, "wb") as out:
                out.write(raw_response(ports["themed"], path))
            servers.canned(canned, port, copy)
        servers.canned(canned, ports["short"], os.path.join(www, "color.json"), "application/json")
        servers.canned(canned, ports["short-png"], os.path.join(www, "logo.png"), "image/png")

        targets = {
            "color": {"themed": f"http://127.0.0.1:{ports['themed']}{COLOR_PATH}",
                      "baseline": f"http://127.0.0.1:{ports['baseline']}{COLOR_PATH}",
                      "nginx": f"http://127.0.0.1:{ports['nginx']}/color.json",
                      "ceiling": f"http://127.0.0.1:{ports['ceiling']}/",
                      "ceiling-short": f"http://127.0.0.1:{ports['short']}/",
                      "themed+log": f"http://127.0.0.1:{ports['themed+log']}{COLOR_PATH}"},
            "image": {"themed": f"http://127.0.0.1:{ports['themed']}{IMAGE_PATH}",
                      "baseline": f"http://127.0.0.1:{ports['baseline']}{IMAGE_PATH}",
                      "nginx": f"http://127.0.0.1:{ports['nginx']}/logo.png",
                      "ceiling": f"http://127.0.0.1:{ports['ceiling-png']}/",
                      "ceiling-short": f"http://127.0.0.1:{ports['short-png']}/"},
        }
        targets["token"] = {"themed": f"http://127.0.0.1:{ports['themed']}{TOKEN_PATH}"}
        targets["assign"] = {"themed": f"http://127.0.0.1:{ports['themed']}/assign/current?client=warm"}
        # The colour at a generation-pinned URL (what a client following an alias reads): a kept
        # answer on the fast path, like the colour route (issue 44).
        themed_url = f"http://127.0.0.1:{ports['themed']}"
        urllib.request.urlopen(urllib.request.Request(themed_url + "/aliases/bench", data=b'{"theme": "dark"}', method="PUT"), timeout=5).read()
        base = json.loads(fetch(themed_url + "/assign/bench?client=bench"))["base"]
        targets["pinned"] = {"themed": themed_url + COLOR_PATH.replace("/themes/dark", base)}
        assign_script = os.path.join(work, "assign.lua")
        with open(assign_script, "w") as out:
            out.write(ASSIGN_SCRIPT)
        if not baseline:
            for route in targets.values():
                route.pop("baseline", None)
        # Warm every answer into its cache before measuring.
        for route in targets.values():
            for url in route.values():
                for _ in range(3):
                    fetch(url)

        print(f"wrk -t2 -c{args.connections} -d{args.duration}s, {args.rounds} interleaved rounds on 127.0.0.1 "
              f"(servers and wrk share the machine's {os.cpu_count()} cores)", file=sys.stderr)
        results = {(route, server): [] for route, urls in targets.items() for server in urls}
        # The routes only themed answers (token, assign, pinned) are compared with its colour
        # route: each is measured right after it, seconds apart rather than a minute (the
        # machine's speed moves by 15-20% in a minute).
        beside_color = [route for route, urls in targets.items() if list(urls) == ["themed"]]

        def measure(round_number, route, server, url):
            rate, p99, failures = wrk(url, args.duration, args.connections, assign_script if route == "assign" else None)
            results[(route, server)].append((rate, p99, failures))
            print(f"  round {round_number} {route:5} {server:10} {rate:10.0f} req/s  p99 {p99:6.2f} ms"
                  + (f"  {failures} FAILED" if failures else ""), file=sys.stderr)

        for round_number in range(1, args.rounds + 1):
            for route, urls in targets.items():
                if route in beside_color:
                    continue
                # Each round starts with another server: none is always first after the route changes.
                order = list(urls.items())
                shift = (round_number - 1) % len(order)
                for server, url in order[shift:] + order[:shift]:
                    measure(round_number, route, server, url)
                    if (route, server) == ("color", "themed"):
                        for other in beside_color:
                            measure(round_number, other, "themed", targets[other]["themed"])

        # ab -k: HTTP/1.0 clients that ask for keep-alive.
        ab_runs = {"themed": [], "nginx": []}
        for _ in range(args.rounds):
            for server, url in [("themed", targets["color"]["themed"]), ("nginx", targets["color"]["nginx"])]:
                rate, failed, keepalive = ab(url, 100_000, args.connections)
                ab_runs[server].append(rate)
                print(f"  ab -k color {server:10} {rate:10.0f} req/s  keep-alive {keepalive}, failed {failed}", file=sys.stderr)

        def median(route, server, field=0):
            return statistics.median(run[field] for run in results[(route, server)])

        print()
        print(f"{'route':6} {'server':13} {'req/s (median)':>15} {'p99 ms':>8}")
        for (route, server) in results:
            print(f"{route:6} {server:13} {median(route, server):15.0f} {median(route, server, 1):8.2f}")
        print(f"{'color':6} {'themed ab-k':11} {statistics.median(ab_runs['themed']):15.0f}")
        print(f"{'color':6} {'nginx ab-k':11} {statistics.median(ab_runs['nginx']):15.0f}")
        print()
        def round_ratios(route, server, other):
            return [mine[0] / theirs[0] for mine, theirs in zip(results[(route, server)], results[(route, other)])]

        def ratio(route, server, other):
            # The median of the rounds' ratios: a round measures every server within a minute or
            # two, so a slower stretch of the machine touches both sides of each ratio alike.
            return statistics.median(round_ratios(route, server, other))

        def spread(route, server, other):
            ratios = round_ratios(route, server, other)
            return f"(rounds {min(ratios):.2f}-{max(ratios):.2f}x)"

        ratios = {}
        for route in targets:
            for other in ["baseline", "nginx", "ceiling", "ceiling-short"]:
                if (route, other) in results:
                    ratios[(route, other)] = ratio(route, "themed", other)
                    print(f"{route} themed/{other}: req/s {ratios[(route, other)]:.2f}x {spread(route, 'themed', other)}, "
                          f"p99 {median(route, 'themed', 1):.2f} vs {median(route, other, 1):.2f} ms")
        token_ratio = statistics.median(token[0] / color[0] for token, color in zip(results[("token", "themed")], results[("color", "themed")]))
        print(f"token themed/color themed: req/s {token_ratio:.2f}x, p99 {median('token', 'themed', 1):.2f} vs {median('color', 'themed', 1):.2f} ms")
        assign_ratio = statistics.median(assign[0] / color[0] for assign, color in zip(results[("assign", "themed")], results[("color", "themed")]))
        print(f"assign themed/color themed: req/s {assign_ratio:.2f}x (distinct client ids), p99 {median('assign', 'themed', 1):.2f} vs {median('color', 'themed', 1):.2f} ms")
        pinned_ratio = statistics.median(pinned[0] / color[0] for pinned, color in zip(results[("pinned", "themed")], results[("color", "themed")]))
        print(f"pinned themed/color themed: req/s {pinned_ratio:.2f}x (/themes/dark@N/...), p99 {median('pinned', 'themed', 1):.2f} vs {median('color', 'themed', 1):.2f} ms")
        log_ratio = ratio("color", "themed+log", "themed")
        ab_ratio = statistics.median(mine / theirs for mine, theirs in zip(ab_runs["themed"], ab_runs["nginx"]))
        print(f"color access log on/off: {log_ratio:.2f}x {spread('color', 'themed+log', 'themed')}")
        print(f"color ab -k themed/nginx: {ab_ratio:.2f}x")
        failed = sum(run[2] for runs in results.values() for run in runs)
        print(f"failed requests: {failed}")

        commit = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True).stdout.strip()
        dirty = run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"], capture_output=True).stdout.strip()
        base = baseline[0][:7] if baseline else "-"

        def cell(route, other):
            return f"{ratios[(route, other)]:.2f}x" if (route, other) in ratios else "-"
        print()
        print("docs/PERFORMANCE.md row:")
        print(f"| {time.strftime('%Y-%m-%d')} | {commit}{'+' if dirty else ''} | {base} "
              f"| {cell('color', 'baseline')} | {cell('color', 'nginx')} | {cell('color', 'ceiling')} / {cell('color', 'ceiling-short')} "
              f"| {median('color', 'themed', 1):.2f} / {median('color', 'nginx', 1):.2f} "
              f"| {cell('image', 'baseline')} | {cell('image', 'nginx')} | {log_ratio:.2f}x | {ab_ratio:.2f}x |")
        return 1 if failed else 0
    finally:
        servers.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
