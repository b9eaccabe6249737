#!/usr/bin/env python3
"""`make bench-transforms`: a flood of image transforms, as issue 46 found it, against a cached route.

One anonymous client asks FLOOD random sizes of the sample logo (one at a time, fit=fill, PNG),
while wrk keeps asking a cached colour. Measured twice on the same machine:

- reference: wrk on the colour alone (no flood), the route's own speed;
- flood: the same wrk during the flood, with derivedImageBytes at BUDGET.

Printed and written to out/bench-transforms.json: the blob store's size on disk after the flood
(goal: within the budget plus the content's own blobs and one pack's slack), the transforms made,
how many were refused busy (503), the colour route's requests/s during the flood as a ratio of the
reference, and what the same flood does with imageTransforms "signed" (every transform 403, the
store does not grow).

    python3 scripts/bench-transforms.py --themed .build/release/themed
"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import threading
import time

from local_themed import LocalThemed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def folder_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


def wrk(port, seconds):
    output = subprocess.run(["wrk", "-t1", "-c8", f"-d{seconds}s", f"http://127.0.0.1:{port}/themes/light/colors/primary"],
                            capture_output=True, text=True).stdout
    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
    return float(match.group(1)) if match else 0.0


def flood(port, count, seed, stop_at=None):
    """Asks `count` random sizes one at a time; returns the statuses seen."""
    rng = random.Random(seed)
    statuses = {}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for _ in range(count):
        if stop_at and time.time() > stop_at:
            break
        w, h = rng.randint(16, 1024), rng.randint(16, 1024)
        connection.request("GET", f"/themes/light/images/logo?w={w}&h={h}&fit=fill&format=png")
        response = connection.getresponse()
        response.read()
        statuses[response.status] = statuses.get(response.status, 0) + 1
        if response.getheader("Connection") == "close":
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    return statuses


def metric(port, pattern):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/metrics")
    text = connection.getresponse().read().decode()
    match = re.search(pattern, text, re.M)
    return int(float(match.group(1))) if match else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", default=os.path.join(ROOT, ".build/release/themed"))
    parser.add_argument("--port", type=int, default=8097)
    parser.add_argument("--flood", type=int, default=int(os.environ.get("FLOOD", "1500")))
    parser.add_argument("--budget", type=int, default=int(os.environ.get("BUDGET", str(64 << 20))))
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("SECONDS_", "20")))
    args = parser.parse_args()
    results = {"flood": args.flood, "budget_bytes": args.budget}
    work = tempfile.mkdtemp(prefix="themed-bench-transforms-")
    try:
        themes = os.path.join(ROOT, "themes")
        with LocalThemed(args.themed, work, themes, settings={"derivedImageBytes": args.budget}, port=args.port):
            content = folder_bytes(os.path.join(work, "blobs"))
            results["reference_rps"] = wrk(args.port, 5)
            statuses = {}
            done = threading.Event()

            def run():
                statuses.update(flood(args.port, args.flood, 46, stop_at=time.time() + args.seconds * 6))
                done.set()
            thread = threading.Thread(target=run)
            started = time.time()
            thread.start()
            during = []
            while not done.is_set():
                during.append(wrk(args.port, 5))
            thread.join()
            results["flood_seconds"] = time.time() - started
            results["flood_statuses"] = statuses
            results["during_flood_rps"] = min(during) if during else None
            results["during_flood_ratio"] = (min(during) / results["reference_rps"]) if during and results["reference_rps"] else None
            results["blobs_bytes"] = folder_bytes(os.path.join(work, "blobs"))
            results["content_bytes"] = content
            results["derived_bytes_metric"] = metric(args.port, r'^themed_cache_bytes\{cache="derived-images"\} (\d+)')
            results["derived_evictions"] = metric(args.port, r'^themed_cache_evictions_total\{cache="derived-images"\} (\d+)')
        shutil.rmtree(os.path.join(work, "blobs"), ignore_errors=True)
        os.remove(os.path.join(work, "index.sqlite"))
        signed = {"imageTransforms": "signed", "imageSigningKeys": ["a-key-nobody-outside-has"]}
        with LocalThemed(args.themed, work, themes, settings=signed, port=args.port):
            before = folder_bytes(os.path.join(work, "blobs"))
            results["signed_statuses"] = flood(args.port, min(args.flood, 300), 47)
            results["signed_growth_bytes"] = folder_bytes(os.path.join(work, "blobs")) - before
    finally:
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(ROOT, "out"), exist_ok=True)
    with open(os.path.join(ROOT, "out", "bench-transforms.json"), "w") as file:
        json.dump(results, file, indent=1)
    print(json.dumps(results, indent=1))
    slack = 64 << 20  # one pack written past the budget before the trim, and the content's own blobs
    ok = results["blobs_bytes"] <= args.budget + results["content_bytes"] + slack and results["signed_growth_bytes"] < (1 << 20)
    print("bench-transforms: " + ("within the budget" if ok else "FAILED: the store grew past its budget"))
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
