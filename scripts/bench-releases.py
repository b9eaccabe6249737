#!/usr/bin/env python3
"""`make bench-releases N=1000`: what N publishes of one theme over HTTP leave in PostgreSQL.

Starts a throwaway PostgreSQL and one `themed serve --cluster` on loopback, makes a token, then
publishes the sample `light` theme N times through POST /themes/light/releases, each time with
its primary colour changed (so every release has one new blob) and, every tenth time, a new
128 KiB image (so some releases carry more). Prints the publish time (p50, p99), then the
database's size (pg_database_size), the rows and bytes of releases and blobs, and the same after
N/10 publishes, so the retention (`releaseRetention`, default 20) shows as a size that stops
growing, and after VACUUM FULL (what is live). Also checks that the newest release is served.
"""
import argparse
import io
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_harness as cluster  # noqa: E402  (PostgreSQL and the helpers the cluster scripts share)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def theme_archive(number):
    """The sample light theme as a gzip-compressed tar, its primary colour set by `number`."""
    source = os.path.join(ROOT, "themes/light/Theme.xcassets")
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w:gz") as tar:
        for folder, _, files in os.walk(source):
            for name in sorted(files):
                path = os.path.join(folder, name)
                relative = "Theme.xcassets/" + os.path.relpath(path, source)
                data = open(path, "rb").read()
                if relative == "Theme.xcassets/primary.colorset/Contents.json":
                    colour = {"colors": [{"idiom": "universal", "color": {"color-space": "srgb", "components": {
                        "red": str(number % 256), "green": str(number // 256 % 256), "blue": "7", "alpha": "1.000"}}}],
                        "info": {"author": "xcode", "version": 1}}
                    data = json.dumps(colour).encode()
                info = tarfile.TarInfo(relative)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        if number % 10 == 0:
            blob = random.Random(number).randbytes(128 << 10)
            info = tarfile.TarInfo("Theme.xcassets/extra.dataset/payload.bin")
            info.size = len(blob)
            tar.addfile(info, io.BytesIO(blob))
            contents = json.dumps({"data": [{"idiom": "universal", "filename": "payload.bin"}], "info": {"author": "xcode", "version": 1}}).encode()
            info = tarfile.TarInfo("Theme.xcassets/extra.dataset/Contents.json")
            info.size = len(contents)
            tar.addfile(info, io.BytesIO(contents))
    return archive.getvalue()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def sizes(url):
    query = ("SELECT pg_database_size('postgres'), (SELECT count(*) FROM themed_release), (SELECT count(*) FROM themed_blob), "
             "(SELECT coalesce(sum(length(bytes)), 0) FROM themed_blob), pg_total_relation_size('themed_blob'), "
             "pg_total_relation_size('themed_release'), (SELECT count(*) FROM themed_audit)")
    output = subprocess.run(["psql", url, "-At", "-F", " ", "-c", query], check=True, capture_output=True, text=True).stdout.split()
    keys = ["database_bytes", "releases", "blobs", "blob_bytes", "blob_table_bytes", "release_table_bytes", "audit_rows"]
    return dict(zip(keys, map(int, output)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", default=os.path.join(ROOT, ".build/release/themed"))
    parser.add_argument("--publishes", type=int, default=1000)
    args = parser.parse_args()
    args.themed = os.path.abspath(args.themed)
    work = tempfile.mkdtemp(prefix="themed-bench-releases-")
    cluster.PG_PORT = free_port()
    postgres = cluster.Postgres(tempfile.mkdtemp(prefix="themed-bench-releases-pg-"))
    postgres.init()
    postgres.start()
    url = "postgresql://postgres@127.0.0.1:%d/postgres" % cluster.PG_PORT
    server = None
    try:
        token = subprocess.run([args.themed, "token", "create", "--cluster", url, "--name", "bench"], check=True, capture_output=True,
                               text=True).stdout.strip()
        port = free_port()
        server = subprocess.Popen([args.themed, "serve", "--cluster", url, "--themes", "themes", "--db", "index.sqlite", "--blobs", "blobs",
                                   "--port", str(port)], cwd=work, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "themed.log"), "w"))
        if not cluster.wait_until(lambda: cluster.get(port, "/readyz")[0] == 200, 30, 0.05):
            sys.exit("bench-releases: themed did not start: " + open(os.path.join(work, "themed.log")).read())
        durations, checkpoints = [], {}
        for number in range(1, args.publishes + 1):
            body = theme_archive(number)
            request = urllib.request.Request("http://127.0.0.1:%d/themes/light/releases" % port, data=body, method="POST",
                                             headers={"Authorization": "Bearer " + token, "Content-Type": "application/gzip"})
            started = time.monotonic()
            with urllib.request.urlopen(request, timeout=60) as response:
                assert response.status == 201, response.status
                generation = json.load(response)["generation"]
            durations.append(time.monotonic() - started)
            if number in (args.publishes // 10, args.publishes):
                checkpoints[number] = sizes(url)
        # Dead rows of dropped releases and blobs wait for autovacuum; VACUUM FULL shows what is live.
        subprocess.run(["psql", url, "-q", "-c", "VACUUM FULL"], check=True, capture_output=True)
        checkpoints["%d after VACUUM FULL" % args.publishes] = sizes(url)
        served = cluster.wait_until(lambda: json.loads(cluster.get(port, "/themes/light/releases")[2] or b"{}")
                                    .get("releases", [{}])[0].get("generation") == generation, 10)
        durations.sort()
        result = {"publishes": args.publishes, "publish_p50_ms": round(durations[len(durations) // 2] * 1000, 1),
                  "publish_p99_ms": round(durations[int(len(durations) * 0.99)] * 1000, 1), "newest_listed": served,
                  "after": {str(number): values for number, values in checkpoints.items()}}
        print(json.dumps(result, indent=2))
        os.makedirs(os.path.join(ROOT, "out"), exist_ok=True)
        with open(os.path.join(ROOT, "out/bench-releases.json"), "w") as file:
            json.dump(result, file, indent=2)
    finally:
        if server:
            server.terminate()
            server.wait(timeout=30)
        postgres.stop()
        shutil.rmtree(postgres.folder, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
