#!/usr/bin/env python3
"""`make bench-yield`: the event loops' yield policy (loopYieldAfterMicroseconds) under wrk.

For each policy, themed serves a cached colour to wrk (2 threads, 64 connections, on the same two
cores as the server), ROUNDS rounds of DURATION seconds, in two conditions: alone, and beside
NEIGHBOURS CPU-bound processes (busy loops at normal priority: a build, a batch job), where each
yield hands a neighbour a time slice. Prints requests/s and p99 (medians of the rounds) per policy
and condition, and writes out/bench-yield.json.

    python3 scripts/bench-yield.py --themed .build/release/themed
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

from local_themed import LocalThemed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POLICIES = [("never", 0), ("250 us", 250), ("1 ms (default)", 1000), ("4 ms", 4000)]


def wrk(port, seconds):
    out = subprocess.run(["wrk", "-t2", "-c64", f"-d{seconds}s", "--latency", f"http://127.0.0.1:{port}/themes/light/colors/primary"],
                         capture_output=True, text=True).stdout
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1, "s": 1000}
    return float(rps.group(1)) if rps else 0.0, float(p99.group(1)) * scale[p99.group(2)] if p99 else float("nan")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", default=os.path.join(ROOT, ".build/release/themed"))
    parser.add_argument("--port", type=int, default=8096)
    parser.add_argument("--rounds", type=int, default=int(os.environ.get("ROUNDS", "5")))
    parser.add_argument("--duration", type=int, default=int(os.environ.get("DURATION", "3")))
    parser.add_argument("--neighbours", type=int, default=int(os.environ.get("NEIGHBOURS", "2")))
    args = parser.parse_args()
    results = []
    work = tempfile.mkdtemp(prefix="themed-bench-yield-")
    for condition in ("alone", "beside CPU-bound neighbours"):
        neighbours = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(args.neighbours)] if condition != "alone" else []
        try:
            # Policies interleaved round by round, so drift on the machine touches each alike.
            samples = {name: [] for name, _ in POLICIES}
            for _ in range(args.rounds):
                for name, after in POLICIES:
                    with LocalThemed(args.themed, work, os.path.join(ROOT, "themes"), settings={"loopYieldAfterMicroseconds": after}, port=args.port):
                        wrk(args.port, 1)
                        samples[name].append(wrk(args.port, args.duration))
            for name, after in POLICIES:
                rps = statistics.median(s[0] for s in samples[name])
                p99 = statistics.median(s[1] for s in samples[name])
                results.append({"condition": condition, "policy": name, "after_us": after, "rps": rps, "p99_ms": p99})
                print(f"{condition:30} {name:16} {rps:10.0f} req/s  p99 {p99:6.2f} ms", flush=True)
        finally:
            for neighbour in neighbours:
                neighbour.kill()
                neighbour.wait()
    os.makedirs(os.path.join(ROOT, "out"), exist_ok=True)
    with open(os.path.join(ROOT, "out", "bench-yield.json"), "w") as file:
        json.dump(results, file, indent=1)
    for condition in ("alone", "beside CPU-bound neighbours"):
        default = next(r for r in results if r["condition"] == condition and r["after_us"] == 1000)
        for r in results:
            if r["condition"] == condition and r is not default:
                print(f"{condition}: {r['policy']} / default: req/s {r['rps'] / default['rps']:.2f}x, p99 {r['p99_ms']:.2f} vs {default['p99_ms']:.2f} ms")


if __name__ == "__main__":
    main()
