#!/usr/bin/env python3
"""`make bench-tokens`, issue 76: `/tokens` of a cold combination over HTTP, as a client sees it.

The 6 x 5 resolver `themed-bench combinations` makes (15,625 combinations; the index stores the
defaults, the rest are resolved when asked) served by `themed serve`; 200 combinations chosen at
random (the same on every run), each asked once (cold: resolved, written and kept) and at once
again (kept), on one keep-alive connection. Prints one JSON object: the first request (which also reads
the theme's files), the cold p50, p99 and max against the goal (p50 <= 50 ms), the kept p50, and
the server's peak RSS.

    python3 scripts/bench-cold-tokens.py --themed .build/release/themed --themes var/bench-combinations/m6/themes
"""
import argparse
import http.client
import json
import os
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from local_themed import LocalThemed  # noqa: E402


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def peak_rss_mb(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def timed_get(connection, path):
    start = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - start) * 1000
    if response.status != 200:
        raise SystemExit("%s answered %d: %s" % (path, response.status, body[:200]))
    return elapsed, body


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", required=True)
    parser.add_argument("--themes", required=True, help="a themes folder with the theme ds of 6 modifiers m0..m5 of 5 contexts c0..c4")
    parser.add_argument("--count", type=int, default=200)
    arguments = parser.parse_args()
    chooser = random.Random(76)
    combinations = set()
    while len(combinations) < arguments.count:
        combinations.add(tuple("c%d" % chooser.randrange(5) for _ in range(6)))
    paths = ["/themes/ds/tokens?" + "&".join("m%d=%s" % (number, context) for number, context in enumerate(chosen))
             for chosen in sorted(combinations)]
    chooser.shuffle(paths)
    with tempfile.TemporaryDirectory() as work:
        with LocalThemed(arguments.themed, work, os.path.abspath(arguments.themes)) as server:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            first, _ = timed_get(connection, paths[0])
            cold, kept = [], []
            for path in paths[1:]:
                cold.append(timed_get(connection, path)[0])
                kept.append(timed_get(connection, path)[0])
            _, document = timed_get(connection, paths[1])
            result = {
                "combinations": 5 ** 6, "asked": len(paths), "documentBytes": len(document),
                "firstMs": round(first, 1),
                "coldP50Ms": round(percentile(cold, 0.5), 1), "coldP99Ms": round(percentile(cold, 0.99), 1), "coldMaxMs": round(max(cold), 1),
                "coldGoalP50Ms": 50, "keptP50Ms": round(percentile(kept, 0.5), 2),
                "peakRSSMB": round(peak_rss_mb(server.process.pid), 1),
            }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
