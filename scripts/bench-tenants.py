#!/usr/bin/env python3
"""`make bench-tenants N=1000`: a white-label platform of N brand themes on one replica.

Generates the platform with the project's own compiler: a base theme (a real catalog from the
shared corpus when there is one, else the sample `light` theme) and N brand children, each with
80 colours in light and dark and 4 images at 3 scales, distinct per brand, compiled with
`themed compile` into the brand's Assets.car. Then measures, against the same measurements on a
10-brand platform in the same run:
- `themed index`: themes per second and peak RSS;
- `themed serve` on the existing index: seconds until /healthz answers, and RSS then;
- and at the end, a restart with the index and the filled blob store kept: seconds to /healthz;
- resolved palettes asked right after that, while the background warming encodes every image
  (the blobs are empty), p50 and p99;
- RSS after a sweep of every brand's resolved palette;
- how long the background warming takes (until /metrics says themed_warming_pending 0);
- then uncached lookups (each asked once, on one keep-alive connection): a brand's resolved
  palette (80 + the base's colours), and a single colour, p50 and p99.

Generated platforms are kept under var/tenants/N (made again only when missing). Loopback only.
"""
import argparse
import http.client
import json
import multiprocessing
import os
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import time
import urllib.request
import zlib
from sample_themes import SAMPLE_BUILDS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLORS = 80
IMAGES = 4


def png(width, height, rgb):
    """A solid-colour RGB PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        json.dump(value, file)


def brand_assets(folder, brand):
    """80 colours (light and dark) and 4 images at 1x, 2x and 3x, all distinct to `brand`."""
    for number in range(COLORS):
        components = lambda shift: {"red": f"{(brand * 7 + number + shift) % 256 / 255:.4f}",
                                    "green": f"{(brand * 13 + number * 3) % 256 / 255:.4f}",
                                    "blue": f"{(number * 11 + shift) % 256 / 255:.4f}", "alpha": "1.000"}
        write_json(f"{folder}/color{number}.colorset/Contents.json", {"colors": [
            {"idiom": "universal", "color": {"color-space": "srgb", "components": components(0)}},
            {"idiom": "universal", "appearances": [{"appearance": "luminosity", "value": "dark"}],
             "color": {"color-space": "srgb", "components": components(90)}},
        ], "info": {"author": "xcode", "version": 1}})
    for number in range(IMAGES):
        images = []
        os.makedirs(f"{folder}/image{number}.imageset", exist_ok=True)
        for scale in (1, 2, 3):
            name = f"image{number}@{scale}x.png"
            with open(f"{folder}/image{number}.imageset/{name}", "wb") as file:
                file.write(png(8 * scale, 8 * scale, ((brand * 5) % 256, (number * 60) % 256, (brand // 256) % 256)))
            images.append({"idiom": "universal", "scale": f"{scale}x", "filename": name})
        write_json(f"{folder}/image{number}.imageset/Contents.json", {"images": images, "info": {"author": "xcode", "version": 1}})


def make_brand(job):
    """One brand's theme folder: its catalog compiled from a source folder of its own."""
    themed, folder, brand = job
    source = os.path.join(folder, f"source-{brand}.xcassets")
    shutil.rmtree(source, ignore_errors=True)
    brand_assets(source, brand)
    theme = os.path.join(folder, "themes", f"brand{brand}")
    os.makedirs(theme, exist_ok=True)
    write_json(os.path.join(theme, "theme.json"), {"parent": "base"})
    subprocess.run([themed, "compile", source, "-o", os.path.join(theme, "Assets.car")], check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(source, ignore_errors=True)


def generate(themed, brands, folder):
    """The platform under `folder/themes`, made once."""
    themes = os.path.join(folder, "themes")
    done = os.path.join(folder, "complete")
    if os.path.exists(done):
        return themes
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(themes)
    corpus = os.path.join(ROOT, "..", "shared", "corpus", "car")
    candidates = sorted(os.listdir(corpus)) if os.path.isdir(corpus) else []
    base = os.path.join(themes, "base")
    os.makedirs(base)
    if candidates:
        # The largest catalog that fits a base theme's role (a few MB).
        sized = sorted((os.path.getsize(os.path.join(corpus, name)), name) for name in candidates if name.endswith(".car"))
        pick = [name for size, name in sized if size < 4 << 20][-1]
        shutil.copy(os.path.join(corpus, pick), os.path.join(base, "Assets.car"))
    else:
        shutil.copytree(os.path.join(ROOT, "themes", "light"), base, dirs_exist_ok=True, ignore=SAMPLE_BUILDS)
    started = time.time()
    # A brand at a time in each of a pool of processes, one a core: a brand is a compiler run
    # (about 0.1 s, most of it the process's start) and 10,000 of them one after the other took
    # most of an hour.
    with multiprocessing.Pool(os.cpu_count() or 1) as pool:
        for made, _ in enumerate(pool.imap_unordered(make_brand, [(themed, folder, brand) for brand in range(brands)], chunksize=16), start=1):
            if made % 500 == 0:
                print(f"  generated {made} brands in {time.time() - started:.0f} s", file=sys.stderr)
    open(done, "w").close()
    return themes


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def timed_get(connection, path):
    """Milliseconds for one GET on a kept-alive connection, and its status."""
    started = time.perf_counter()
    connection.request("GET", path)
    answer = connection.getresponse()
    answer.read()
    return (time.perf_counter() - started) * 1000, answer.status


def metric(port, name):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    return None


def start_serving(command, log, port):
    """Starts `themed serve` and returns it once /healthz answers 200."""
    started = time.time()
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return server
        except OSError:
            pass
        if time.time() - started > 600:
            server.kill()
            raise SystemExit("bench-tenants: themed did not become ready in 600 s")
        time.sleep(0.02)


def measure(themed, brands, work, port, sample):
    folder = os.path.join(ROOT, "var", "tenants", str(brands))
    themes = generate(themed, brands, folder)
    database = os.path.join(work, f"index-{brands}.sqlite")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.time()
    subprocess.run([themed, "index", "--themes", themes, "--db", database], check=True, stdout=subprocess.DEVNULL)
    index_seconds = time.time() - started
    # ru_maxrss of children is the largest of any child so far (KiB); the index is the largest yet.
    index_peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024

    serve = [themed, "serve", "--themes", themes, "--db", database, "--blobs", os.path.join(work, f"blobs-{brands}"), "--port", str(port)]
    log = open(os.path.join(work, f"serve-{brands}.log"), "w")
    started = time.time()
    server = start_serving(serve, log, port)
    try:
        ready = time.time() - started
        ready_rss = rss_mb(server.pid)
        # Palettes while the warming runs (the first serve of this index: its blobs are empty, so
        # the warming encodes every image). An existing index is served before the folder is
        # compared with it, and the warming is queued after that comparison: the palettes are
        # asked once it is (the last brand's detail shows its progress), `sample` requests of their
        # own (idiom=phone, which the later ones do not ask), on one kept-alive connection.
        last = f"http://127.0.0.1:{port}/themes/brand{brands - 1}"
        while json.load(urllib.request.urlopen(last, timeout=60)).get("warming") is None:
            time.sleep(0.01)
        pending_before = metric(port, "themed_warming_pending")
        spread = [f"brand{number}" for number in range(0, brands, max(1, brands // sample))][:sample]
        traits = ["", "&appearance=dark", "&gamut=p3", "&appearance=dark&gamut=p3"]
        asked = [spread[number % len(spread)] for number in range(min(sample, len(spread) * len(traits)))]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        warming = [timed_get(connection, f"/themes/{brand}/colors?resolve=1&idiom=phone{traits[number // len(spread)]}")[0]
                   for number, brand in enumerate(asked)]
        pending_after = metric(port, "themed_warming_pending")
        # The other lookups are timed once the background warming is done: at 10 brands it takes
        # a moment, at 10,000 half a minute of a core.
        while metric(port, "themed_warming_pending") != 0:
            time.sleep(0.1)
        warm = time.time() - started
        # `sample` distinct uncached requests of each kind, spread over the brands: at 10 brands a
        # palette is asked in four trait combinations (each its own answer) and single colours of
        # many names, so both platforms are measured on as many requests.
        palettes = [timed_get(connection, f"/themes/{brand}/colors?resolve=1{traits[number // len(spread)]}")[0]
                    for number, brand in enumerate(asked)]
        singles = [timed_get(connection, f"/themes/{spread[number % len(spread)]}/colors/color{number // len(spread) % COLORS}")[0]
                   for number in range(sample)]
        for number in range(brands):
            timed_get(connection, f"/themes/brand{number}/colors?resolve=1")
        swept_rss = rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    # A restart as an operator makes one: the index and the blobs (every image and palette the
    # sweep stored) kept, read again before the first answer.
    started = time.time()
    server = start_serving(serve, log, port)
    restart = time.time() - started
    server.terminate()
    server.wait(timeout=30)

    def p(values, q):
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return {"brands": brands, "index_s": index_seconds, "themes_per_s": (brands + 1) / index_seconds, "index_peak_mb": index_peak,
            "ready_s": ready, "restart_s": restart, "ready_rss_mb": ready_rss, "warm_s": warm, "swept_rss_mb": swept_rss,
            "warming_p50_ms": statistics.median(warming), "warming_p99_ms": p(warming, 0.99), "warming_before": pending_before or 0, "warming_pending": pending_after or 0,
            "palette_p50_ms": statistics.median(palettes), "palette_p99_ms": p(palettes, 0.99),
            "single_p50_ms": statistics.median(singles), "single_p99_ms": p(singles, 0.99)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--themed", default=os.path.join(ROOT, ".build/release/themed"))
    parser.add_argument("--brands", type=int, default=int(os.environ.get("N", 1000)))
    parser.add_argument("--sample", type=int, default=200, help="brands whose uncached lookups are timed")
    args = parser.parse_args()
    work = os.path.join(ROOT, "var", "tenants", "run")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    small = measure(args.themed, 10, work, 18180, 10)
    large = measure(args.themed, args.brands, work, 18181, args.sample)
    print(f"{'':28} {'10 brands':>12} {str(args.brands) + ' brands':>14}")
    for key, label in [("index_s", "index (s)"), ("themes_per_s", "index rate (themes/s)"), ("index_peak_mb", "index peak RSS (MB)"),
                       ("ready_s", "serve ready (s)"), ("restart_s", "ready after a restart (s)"), ("ready_rss_mb", "RSS when ready (MB)"), ("warm_s", "warming done (s)"), ("swept_rss_mb", "RSS after palettes (MB)"),
                       ("warming_p50_ms", "palette while warming p50"), ("warming_p99_ms", "palette while warming p99"),
                       ("warming_before", "warming queued before those"), ("warming_pending", "warming left after those"),
                       ("palette_p50_ms", "palette uncached p50 (ms)"), ("palette_p99_ms", "palette uncached p99 (ms)"),
                       ("single_p50_ms", "colour uncached p50 (ms)"), ("single_p99_ms", "colour uncached p99 (ms)")]:
        print(f"{label:28} {small[key]:12.2f} {large[key]:14.2f}")
    print(f"single lookup p50 at {args.brands} / at 10: {large['single_p50_ms'] / small['single_p50_ms']:.2f}x; "
          f"palette: {large['palette_p50_ms'] / small['palette_p50_ms']:.2f}x")


if __name__ == "__main__":
    main()
