#!/usr/bin/env python3
"""`make bench-blobs`: the blob store on the shared corpus, served as one theme per catalog.

1. A fresh start warms every theme (each image and data rendition encoded once, in the
   background); prints how long that took.
2. A sweep asks for every image and data name at scales 1, 2 and 3, and for every variant of each
   through the blob URLs its `.json` lists, and adds up the distinct bytes served (distinct
   ETags). Goal: the blob store on disk <= 1.1x those bytes.
3. themed is restarted on the same index and blobs, and the first request for each swept image
   is timed. Goal: <= 2 ms (max and p99 printed), and no decode at all (themed_decodes_total 0).

    python3 scripts/bench-blobs.py --themed .build/release/themed --corpus ../shared/corpus
"""
import argparse
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse


def get(connection, path):
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.getheader("ETag"), response.read()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def start(args, work, themes):
    log = open(os.path.join(work, "themed.log"), "a")
    server = subprocess.Popen([args.themed, "serve", "--config", os.path.join(work, "themed.json"), "--themes", themes,
                               "--db", os.path.join(work, "index.sqlite"), "--blobs", os.path.join(work, "blobs"),
                               "--port", str(args.port)], stdout=log, stderr=log, cwd=work)
    deadline = time.time() + 300
    while time.time() < deadline and server.poll() is None:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
            if get(connection, "/healthz")[0] == 200:
                return server, connection
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit("bench-blobs: themed did not start (see %s)" % os.path.join(work, "themed.log"))


def stop(server):
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", default=".build/release/themed")
    parser.add_argument("--corpus", default="../shared/corpus")
    parser.add_argument("--port", type=int, default=18096)
    args = parser.parse_args()
    args.themed = os.path.abspath(args.themed)
    folder = os.path.join(args.corpus, "car")
    catalogs = sorted(name for name in os.listdir(folder) if name.endswith(".car")) if os.path.isdir(folder) else []
    if not catalogs:
        print("bench-blobs: SKIPPED (no catalogs under %s)" % args.corpus)
        return 0
    work = tempfile.mkdtemp()
    themes = os.path.join(work, "themes")
    os.makedirs(themes)
    names = ["c%02d" % number for number in range(len(catalogs))]
    for theme, catalog in zip(names, catalogs):
        shutil.copyfile(os.path.join(folder, catalog), os.path.join(themes, theme + ".car"))
    with open(os.path.join(work, "themed.json"), "w") as file:
        json.dump({"watch": False}, file)
    server = None
    try:
        started = time.time()
        server, connection = start(args, work, themes)
        while True:
            details = [json.loads(get(connection, "/themes/" + theme)[2]) for theme in names]
            if all((detail.get("warming") or {}).get("complete") for detail in details):
                break
            time.sleep(0.2)
        total = sum(detail["warming"]["total"] for detail in details)
        print("warming: %d images and data of %d catalogs stored in %.1f s after start" % (total, len(names), time.time() - started))

        paths, served = [], {}
        for theme, detail in zip(names, details):
            for name in detail.get("images", []) + detail.get("data", []):
                for scale in (1, 2, 3):
                    path = "/themes/%s/images/%s?scale=%d" % (theme, urllib.parse.quote(name), scale)
                    status, etag, body = get(connection, path)
                    if status == 200:
                        paths.append(path)
                        served[etag] = len(body)
                status, etag, body = get(connection, "/themes/%s/images/%s.json" % (theme, urllib.parse.quote(name)))
                if status != 200:
                    continue
                served[etag] = len(body) # kept as a blob too
                metadata = json.loads(body)
                for variant in [metadata["chosen"]] + metadata["variants"]:
                    if variant.get("blob") and '"%s"' % variant["etag"] not in served:
                        status, etag, body = get(connection, variant["blob"])
                        if status == 200:
                            served[etag] = len(body)
        distinct = sum(served.values())
        packs = [os.path.join(work, "blobs", name) for name in os.listdir(os.path.join(work, "blobs"))]
        apparent = sum(os.path.getsize(path) for path in packs)
        on_disk = sum(os.stat(path).st_blocks * 512 for path in packs)
        ratio = on_disk / distinct if distinct else float("nan")
        print("sweep: %d image requests and every variant's blob, %d distinct answers, %.1f MB distinct bytes served" % (len(paths), len(served), distinct / 1e6))
        print("blob store: %d packs, %.1f MB (%.1f MB on disk): %.3fx the distinct bytes (goal <= 1.1x: %s)"
              % (len(packs), apparent / 1e6, on_disk / 1e6, ratio, "met" if ratio <= 1.1 else "NOT met"))
        stop(server)

        server, connection = start(args, work, themes)
        latencies = []
        for path in paths:
            begin = time.perf_counter()
            status, _, _ = get(connection, path)
            latencies.append((time.perf_counter() - begin) * 1000)
        decodes = [line for line in get(connection, "/metrics")[2].decode().splitlines() if line.startswith("themed_decodes_total")]
        worst, p99, p50 = max(latencies), percentile(latencies, 0.99), percentile(latencies, 0.5)
        slow = sorted(range(len(latencies)), key=lambda index: -latencies[index])[:3]
        print("slowest: " + ", ".join("#%d %.2f ms" % (index, latencies[index]) for index in slow))
        print("after a restart: first request of each of %d images p50 %.2f ms, p99 %.2f ms, max %.2f ms (goal <= 2 ms: %s); %s"
              % (len(latencies), p50, p99, worst, "met" if worst <= 2 else "p99 %s, max NOT met" % ("met" if p99 <= 2 else "NOT met"),
                 decodes[0] if decodes else "no decode counter"))
        return 0
    finally:
        if server:
            stop(server)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
