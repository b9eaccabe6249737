#!/usr/bin/env python3
"""`make bench-cold`: does a cold sweep of images stall the other clients?

Every catalog of the shared corpus becomes a theme of its own. While 4 clients request every
image of every theme at scales 1, 2 and 3 (first requests: each is a decode and a PNG encode),
one client asks for resolved palettes (answers already cached, so all they need is an event loop
that is free) and records how long each takes. Prints the palette p50, p99 and max against the
goal (p99 <= 5 ms, max <= 20 ms), the sweep's size and time, and the server's peak RSS against the
cache budgets and decode memory it was given (goal: at most their sum + 64 MB, after the sweep and
at its peak).

    python3 scripts/bench-cold.py --themed .build/release/themed --corpus ../shared/corpus
"""
import argparse
import http.client
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse


def get(connection, path):
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read()


def sweep(port, share):
    """One sweeping client, in a process of its own: in one process with the prober, Python's
    global interpreter lock would add its own waits to the latencies measured."""
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    statuses = {}
    for path in share:
        status, _ = get(client, path)
        statuses[status] = statuses.get(status, 0) + 1
    return statuses


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def rss_mb(pid, field="VmHWM"):
    """VmHWM: the peak resident set; VmRSS: the current one."""
    try:
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", default=".build/release/themed")
    parser.add_argument("--corpus", default="../shared/corpus")
    parser.add_argument("--port", type=int, default=18095)
    parser.add_argument("--sweepers", type=int, default=4)
    parser.add_argument("--budget-mb", type=int, nargs=4, default=[16, 32, 64, 32], metavar=("RESPONSES", "ATLASES", "CATALOGS", "DECODING"),
                        help="cache budgets and the decodes' working memory in MB (encoded content lives in the blob store, on disk)")
    parser.add_argument("--defaults", action="store_true", help="no config file: the server's own settings (for builds that predate the budgets)")
    args = parser.parse_args()
    catalogs = sorted(name for name in os.listdir(os.path.join(args.corpus, "car")) if name.endswith(".car")) \
        if os.path.isdir(os.path.join(args.corpus, "car")) else []
    if not catalogs:
        print("bench-cold: SKIPPED (no catalogs under %s)" % args.corpus)
        return 0
    work = tempfile.mkdtemp()
    themes = os.path.join(work, "themes")
    os.makedirs(themes)
    for number, name in enumerate(catalogs):
        shutil.copyfile(os.path.join(args.corpus, "car", name), os.path.join(themes, "c%02d.car" % number))
    budgets = dict(zip(["responseCacheBytes", "atlasCacheBytes", "catalogCacheBytes", "decodeMemoryBytes"], [mb << 20 for mb in args.budget_mb]))
    config = os.path.join(work, "themed.json")
    with open(config, "w") as file:
        json.dump(dict(budgets, watch=False, blobs=os.path.join(work, "blobs")), file)
    log = open(os.path.join(work, "themed.log"), "w")
    settings = [] if args.defaults else ["--config", config]
    server = subprocess.Popen([args.themed, "serve"] + settings + ["--themes", themes, "--db", os.path.join(work, "index.sqlite"),
                                                                  "--port", str(args.port)], stdout=log, stderr=log, cwd=work)
    try:
        deadline = time.time() + 120
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=10)
                if get(connection, "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.time() > deadline or server.poll() is not None:
                print("bench-cold: themed did not start")
                return 1
            time.sleep(0.1)

        # What there is to sweep, and palettes to ask for (warmed, so they are cache hits).
        tasks, palettes = [], []
        for number in range(len(catalogs)):
            theme = "c%02d" % number
            status, body = get(connection, "/themes/" + theme)
            detail = json.loads(body)
            for name in detail.get("images", []) + detail.get("data", []):
                for scale in (1, 2, 3):
                    tasks.append("/themes/%s/images/%s?scale=%d" % (theme, urllib.parse.quote(name), scale))
            if detail.get("colors"):
                palettes.append("/themes/%s/colors?appearance=dark" % theme)
        if not palettes:
            palettes = ["/healthz"]
        for path in palettes:
            get(connection, path)
        started_rss, started_peak = rss_mb(server.pid, "VmRSS"), rss_mb(server.pid)

        done = threading.Event()
        latencies = []

        def prober():
            client = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
            index = 0
            while not done.is_set():
                path = palettes[index % len(palettes)]
                index += 1
                start = time.perf_counter()
                status, _ = get(client, path)
                latencies.append((time.perf_counter() - start) * 1000)
                if status != 200:
                    print("palette %s answered %d" % (path, status))
                time.sleep(0.002)

        shares = [tasks[index::args.sweepers] for index in range(args.sweepers)]
        probe = threading.Thread(target=prober)
        probe.start()
        started = time.time()
        with multiprocessing.Pool(args.sweepers) as pool:
            results = pool.starmap(sweep, [(args.port, share) for share in shares])
        sweep_seconds = time.time() - started
        done.set()
        probe.join()
        sweep_statuses = {}
        for result in results:
            for status, count in result.items():
                sweep_statuses[status] = sweep_statuses.get(status, 0) + count

        p50, p99, worst = percentile(latencies, 0.5), percentile(latencies, 0.99), max(latencies)
        print("cold sweep: %d image requests over %d catalogs (%d clients) in %.1f s; statuses %s"
              % (len(tasks), len(catalogs), args.sweepers, sweep_seconds, dict(sorted(sweep_statuses.items()))))
        print("palette requests meanwhile: %d, p50 %.2f ms, p99 %.2f ms, max %.2f ms   (goal: p99 <= 5 ms, max <= 20 ms: %s)"
              % (len(latencies), p50, p99, worst, "met" if p99 <= 5 and worst <= 20 else "NOT met"))
        rss, peak, allowed = rss_mb(server.pid, "VmRSS"), rss_mb(server.pid), sum(args.budget_mb) + 64
        print("themed RSS: %.0f MB once indexed (peak while indexing %.0f MB), %.0f MB after the sweep, peak %.0f MB; "
              "budgets %s MB, sum + 64 = %d MB: after the sweep %s, peak %s"
              % (started_rss, started_peak, rss, peak, "/".join(map(str, args.budget_mb)), allowed,
                 "within" if rss <= allowed else "OVER", "within" if peak <= allowed else "OVER"))
        status, metrics = get(connection, "/metrics")
        for line in metrics.decode().splitlines():
            if line.startswith(("themed_cache_bytes", "themed_cache_evictions_total", "themed_decodes_total", "themed_decode_memory")):
                print("  " + line)
        return 0
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
