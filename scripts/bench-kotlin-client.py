#!/usr/bin/env python3
"""`make bench-kotlin-client`: the Kotlin client and the Swift one against the same themed.

Starts `themed serve` on the sample themes (folder mode), then runs, one after the other and
ROUNDS times each, `themed-bench client URL` (the Swift `ThemedClient`) and the Kotlin client's
`themed.client.bench.BenchKt` (out/themed-client.jar): palette fetches (no cache: a 200 each time)
and active-theme switches timed from the PUT to the listener. Prints each run's numbers, the
medians and the Kotlin client's against the Swift client's.

    python3 scripts/bench-kotlin-client.py --themed .build/release/themed --bench .build/release/themed-bench
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", required=True)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--classpath", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    work = tempfile.mkdtemp(prefix="themed-client-bench-")
    server = subprocess.Popen([args.themed, "serve", "--themes", os.path.join(ROOT, "themes"), "--db", os.path.join(work, "index.sqlite"),
                               "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = "http://127.0.0.1:%d" % port
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "/healthz", timeout=1).read()
                break
            except OSError:
                time.sleep(0.05)
        results = {"swift": [], "kotlin": []}
        for round_number in range(1, args.rounds + 1):
            for client, command in (("swift", [args.bench, "client", url]),
                                    ("kotlin", ["java", "-cp", args.classpath, "themed.client.bench.BenchKt", url])):
                output = subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
                numbers = json.loads(output)
                results[client].append(numbers)
                print("  round %d %-6s fetch p50 %6.3f ms  p90 %6.3f ms  switch p50 %6.3f ms  max %6.3f ms" % (
                    round_number, client, numbers["fetch_p50_ms"], numbers["fetch_p90_ms"], numbers["switch_p50_ms"], numbers["switch_max_ms"]))
        median = {client: {key: statistics.median(run[key] for run in runs) for key in runs[0]} for client, runs in results.items()}
        print()
        print("client  fetch p50 ms  switch p50 ms  (medians of %d rounds)" % args.rounds)
        for client in ("swift", "kotlin"):
            print("%-7s %12.3f %14.3f" % (client, median[client]["fetch_p50_ms"], median[client]["switch_p50_ms"]))
        print("kotlin/swift: fetch %.2fx the time, switch %.2fx the time" % (
            median["kotlin"]["fetch_p50_ms"] / median["swift"]["fetch_p50_ms"], median["kotlin"]["switch_p50_ms"] / median["swift"]["switch_p50_ms"]))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
