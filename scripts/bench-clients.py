#!/usr/bin/env python3
"""`make bench-clients`: what the clients' contract costs and saves (docs/CLIENTS.md, issue 74.5).

1. Each client against one `themed serve` of the sample themes, ROUNDS times, medians: a palette
   fetched anew, the first frame of a new client from its disk copy (what an offline start draws
   before any request), and an active-theme switch from the `PUT /active` to the listener. The Swift client by
   `themed-bench client`, the Kotlin client by its `BenchKt` (themed.js's first frame is the
   browser's `localStorage`, measured by neither).
2. A reload burst: FOLLOWERS Kotlin clients (one JVM, an event stream each) follow `current`; the
   active theme changes on disk; the server's palette requests are read from /metrics every 50 ms:
   the busiest 100 ms as requests a second, and how long the crowd took. Once with the server's
   `eventRefetchRate` above the crowd (no `refetchWithin`: every client asks at once), once at a
   fifth of it (each waits a random part of `refetchWithin`, FOLLOWERS / rate seconds).

    python3 scripts/bench-clients.py --themed BIN --bench BENCH --classpath CP [--followers 1000] [--rounds 3]

`--followers 0` (make bench-kotlin-client) measures the clients alone.
"""
import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from sample_themes import SAMPLE_BUILDS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Themed:
    def __init__(self, binary, work, settings):
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        config = dict(settings, port=self.port, themes=os.path.join(work, "themes"), db=os.path.join(work, "index.sqlite"),
                      blobs=os.path.join(work, "blobs"))
        with open(os.path.join(work, "themed.json"), "w") as file:
            json.dump(config, file)
        self.process = subprocess.Popen([binary, "serve", "--config", os.path.join(work, "themed.json")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(400):
            try:
                urllib.request.urlopen(self.url + "/readyz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.05)
        sys.exit("themed did not start")

    def palette_requests(self):
        """Palette requests answered so far (every status); None when /metrics did not answer."""
        try:
            text = urllib.request.urlopen(self.url + "/metrics", timeout=5).read().decode()
        except OSError:
            return None
        return sum(int(count) for count in re.findall(r'^themed_requests_total\{route="colors",status="\d+"\} (\d+)$', text, re.M))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)


def per_client(args, work):
    server = Themed(args.themed, work, {})
    try:
        runs = {"swift": [], "kotlin": []}
        for _ in range(args.rounds):
            for client, command in (("swift", [args.bench, "client", server.url]),
                                    ("kotlin", ["java", "-cp", args.classpath, "themed.client.bench.BenchKt", server.url])):
                output = subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
                runs[client].append(json.loads(output))
        return {client: {key: statistics.median(run[key] for run in results) for key in results[0]} for client, results in runs.items()}
    finally:
        server.stop()


def burst(args, work, rate):
    # A connection a stream, and one a refetch besides: room for the crowd past the 1,024 default.
    server = Themed(args.themed, work, {"eventRefetchRate": rate, "maxConnections": max(4096, args.followers * 3)})
    crowd = subprocess.Popen(["java", "-Xss256k", "-cp", args.classpath, "themed.client.bench.FollowersKt", server.url, str(args.followers)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        ready = crowd.stdout.readline()
        if not ready.startswith("ready"):
            sys.exit("the followers did not start: %r" % ready)
        time.sleep(1)  # the streams' opening revalidations end
        active = json.loads(urllib.request.urlopen(server.url + "/active").read())["theme"]
        before = server.palette_requests()
        # The active theme changes on disk: the watcher reloads it and every follower is told.
        folder = os.path.join(work, "themes", active, "Theme.xcassets", "burst%d.colorset" % rate)
        os.makedirs(folder)
        with open(os.path.join(folder, "Contents.json"), "w") as file:
            json.dump({"colors": [{"idiom": "universal", "color": {"color-space": "srgb", "components": {
                "red": "0.5", "green": "0.1", "blue": "0.9", "alpha": "1"}}}], "info": {"author": "xcode", "version": 1}}, file)
        samples = [(time.monotonic(), before)]
        deadline = time.monotonic() + 60
        while samples[-1][1] - before < args.followers and time.monotonic() < deadline:
            time.sleep(0.05)
            answered = server.palette_requests()
            if answered is not None:
                samples.append((time.monotonic(), answered))
        asked = samples[-1][1] - before
        moving = [(t, count) for t, count in samples if count > before]
        first = next((t for t, count in samples if count > before), samples[-1][0])
        last = next((t for t, count in samples if count - before >= asked), samples[-1][0])
        peak = 0.0
        for index, (t, count) in enumerate(samples):
            later = [(t2, c2) for t2, c2 in samples[index + 1:] if t2 - t >= 0.1]
            if later:
                t2, c2 = later[0]
                peak = max(peak, (c2 - count) / (t2 - t))
        return {"rate": rate, "asked": asked, "peak_per_second": peak, "spread_seconds": last - first if moving else 0.0}
    finally:
        crowd.stdin.close()
        crowd.wait(timeout=30)
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", required=True)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--classpath", required=True)
    parser.add_argument("--followers", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    results = {}
    work = tempfile.mkdtemp(prefix="themed-bench-clients-")
    try:
        shutil.copytree(os.path.join(ROOT, "themes"), os.path.join(work, "themes"), ignore=SAMPLE_BUILDS)
        medians = per_client(args, work)
        print("client  fetch p50 ms  offline first frame p50 ms  switch to listener p50 ms  (medians of %d rounds)" % args.rounds)
        for client in ("swift", "kotlin"):
            numbers = medians[client]
            print("%-7s %12.3f %27.3f %26.3f" % (client, numbers["fetch_p50_ms"], numbers["offline_first_frame_p50_ms"], numbers["switch_p50_ms"]))
        print("kotlin/swift: fetch %.2fx the time, first frame %.2fx, switch %.2fx" % tuple(
            medians["kotlin"][key] / medians["swift"][key] for key in ("fetch_p50_ms", "offline_first_frame_p50_ms", "switch_p50_ms")))
        results["clients"] = medians
        if args.followers == 0:
            print(json.dumps(results))
            return
        print()
        print("reload burst, %d Kotlin followers of current:" % args.followers)
        bursts = []
        for label, rate in (("no jitter", args.followers * 100), ("with jitter", max(1, args.followers // 5))):
            for name in os.listdir(work):
                if name not in ("themes",):
                    path = os.path.join(work, name)
                    shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
            numbers = burst(args, work, rate)
            bursts.append(dict(numbers, label=label))
            print("  %-12s eventRefetchRate %7d: %4d palette requests, peak %7.0f a second (busiest 100 ms), spread over %.2f s" % (
                label, rate, numbers["asked"], numbers["peak_per_second"], numbers["spread_seconds"]))
        results["bursts"] = bursts
        if len(bursts) == 2 and bursts[1]["peak_per_second"] > 0:
            print("  the jitter lowered the peak %.1fx" % (bursts[0]["peak_per_second"] / bursts[1]["peak_per_second"]))
        print(json.dumps(results))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
