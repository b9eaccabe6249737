#!/usr/bin/env python3
"""`make bench-reload`: how fast a dropped catalog is served, and what reloading costs.

1. Latency: 50 times, rename a multi-megabyte catalog into a theme folder (alternating between two
   corpus catalogs) and poll GET /themes/big over one keep-alive connection until the response
   shows the new revision. Reports p50 and p99 of rename-to-first-new-response.
2. Throughput: wrk on a colour route for DURATION without reloads, then again while a catalog is
   dropped every 200 ms. Reports both and the ratio.

    python3 scripts/bench-reload.py --themed .build/release/themed --corpus ../shared/corpus
"""
import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from sample_themes import SAMPLE_BUILDS

CATALOGS = ["radzo73__Mojave-Appearances__SystemAppearance.car", "shadowfacts__macos-rollover-window-controls__SystemAppearance.car"]


def drop(source, theme_dir):
    temporary = os.path.join(theme_dir, ".incoming.tmp")
    shutil.copyfile(source, temporary)
    os.rename(temporary, os.path.join(theme_dir, "Assets.car"))


def revision(connection):
    connection.request("GET", "/themes/big")
    response = connection.getresponse()
    body = response.read()
    return json.loads(body)["revision"] if response.status == 200 else None


def wrk(url, duration):
    out = subprocess.run(["wrk", "-t2", "-c64", "-d" + duration, "--latency", url], check=True, capture_output=True, text=True).stdout
    rps = float(next(line.split()[1] for line in out.splitlines() if line.startswith("Requests/sec")))
    errors = [line.strip() for line in out.splitlines() if "Non-2xx" in line or "Socket errors" in line]
    return rps, errors


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", default=".build/release/themed")
    parser.add_argument("--corpus", default="../shared/corpus")
    parser.add_argument("--drops", type=int, default=50)
    parser.add_argument("--duration", default="8s")
    parser.add_argument("--port", type=int, default=18090)
    args = parser.parse_args()
    sources = [os.path.join(args.corpus, "car", name) for name in CATALOGS]
    if not all(os.path.exists(path) for path in sources):
        print("bench-reload: corpus catalogs not found under %s" % args.corpus)
        return 1
    work = tempfile.mkdtemp()
    themes = os.path.join(work, "themes")
    shutil.copytree("themes", themes, ignore=SAMPLE_BUILDS)
    big = os.path.join(themes, "big")
    os.makedirs(big)
    shutil.copyfile(sources[0], os.path.join(big, "Assets.car"))
    server = subprocess.Popen([args.themed, "serve", "--themes", themes, "--db", os.path.join(work, "index.sqlite"),
                               "--port", str(args.port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        connection = None
        for _ in range(100):
            try:
                connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=5)
                if revision(connection):
                    break
            except OSError:
                time.sleep(0.1)
        latencies = []
        for number in range(args.drops):
            before = revision(connection)
            start = time.perf_counter()
            drop(sources[(number + 1) % 2], big)
            while True:
                current = revision(connection)
                if current is not None and current != before:
                    latencies.append((time.perf_counter() - start) * 1000)
                    break
                if time.perf_counter() - start > 10:
                    print("drop %d: not picked up within 10 s" % number)
                    return 1
        latencies.sort()
        p50 = latencies[len(latencies) // 2]
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        size = os.path.getsize(sources[0]) / 1e6
        print("rename -> first response with the new revision, %d drops of %.1f-%.1f MB catalogs:"
              % (args.drops, min(os.path.getsize(s) for s in sources) / 1e6, max(os.path.getsize(s) for s in sources) / 1e6))
        print("  p50 %.1f ms   p99 %.1f ms   max %.1f ms" % (p50, p99, latencies[-1]))
        del size

        url = "http://127.0.0.1:%d/themes/light/colors/primary" % args.port
        calm, calm_errors = wrk(url, args.duration)
        stop = threading.Event()

        def keep_dropping():
            number = 0
            while not stop.is_set():
                drop(sources[number % 2], big)
                number += 1
                time.sleep(0.2)
        dropper = threading.Thread(target=keep_dropping)
        dropper.start()
        busy, busy_errors = wrk(url, args.duration)
        stop.set()
        dropper.join()
        print("wrk -t2 -c64 -d%s on a colour route:" % args.duration)
        print("  without reloads      %10.0f req/s %s" % (calm, " ".join(calm_errors)))
        print("  reload every 200 ms  %10.0f req/s %s" % (busy, " ".join(busy_errors)))
        print("  ratio                %10.2f" % (busy / calm))
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
