#!/usr/bin/env python3
"""`make bench-replica THEMES=10000`: what one publish costs a replica that holds THEMES themes.

Starts a throwaway PostgreSQL and stores in it `base` (the sample light theme, published) and
THEMES themes `t1`... (each a theme.json naming `base` and a tokens file of its own colour,
written by one SQL statement). One `themed serve --cluster` follows it, with the defaults (the
folder watcher on) and a themes folder that already holds every release as a replica writes it
(the files and the `.themed-release` marker). Once it is ready and quiet, `t5` is published
ROUNDS times with a new colour through `themed publish --cluster`, which returns once the
replica serves the release. Prints each publish's wall time, the replica's CPU for it (read in
/proc), and the `change served` times the replica logs (all of it, and its own part without the
store's answers), with their medians. Then the replica is stopped (SIGTERM) and started again
RESTARTS times with its folder and index kept, as an operator's restart: the time from exec to
the first 200 of /readyz, and its CPU by then (a sync of every theme against the folder).

Run it with two builds (`--themed`) to compare them: the setup is the same each time.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_harness as cluster  # noqa: E402  (PostgreSQL and the helpers the cluster scripts share)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PORT = 18931
THEME_JSON = '{"parent": "base"}'


def tokens(number):
    return json.dumps({"brand": {"$type": "color", "$value": "#%06x" % (number * 997 % 0xFFFFFF)}})


def sql(url, statement):
    run = subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-Atc", statement], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"bench-replica: psql: {run.stderr.strip()}")
    return run.stdout


def fill_store(url, themes):
    """THEMES releases, one a theme, by one statement each for the blobs and the rows."""
    sql(url, f"""
        INSERT INTO themed_blob SELECT encode(sha256(b), 'hex'), b FROM (
            SELECT convert_to('{THEME_JSON}', 'UTF8') b
            UNION ALL SELECT convert_to(format('{{"brand": {{"$type": "color", "$value": "#%s"}}}}',
                                               lpad(to_hex(i * 997 % 16777215), 6, '0')), 'UTF8')
            FROM generate_series(1, {themes}) i) s ON CONFLICT DO NOTHING;
        WITH files AS (
            SELECT i, convert_to(format('{{"brand": {{"$type": "color", "$value": "#%s"}}}}', lpad(to_hex(i * 997 % 16777215), 6, '0')), 'UTF8') AS tokens,
                   convert_to('{THEME_JSON}', 'UTF8') AS settings
            FROM generate_series(1, {themes}) i)
        INSERT INTO themed_release (theme, generation, manifest, retired, settings)
        SELECT 't' || i, nextval('themed_generation'),
               encode(sha256(tokens), 'hex') || ' ' || octet_length(tokens) || E' colors.tokens.json\\n'
               || encode(sha256(settings), 'hex') || ' ' || octet_length(settings) || E' theme.json\\n',
               false, encode(sha256(settings), 'hex')
        FROM files ORDER BY i;""")
    rows = sql(url, "SELECT theme, generation FROM themed_release WHERE theme ~ '^t[0-9]+$'")
    return dict(line.split("|") for line in rows.split())


def write_folder(folder, generations):
    """Each release as the replica writes it: its files and its marker."""
    for theme, generation in generations.items():
        path = os.path.join(folder, theme)
        os.makedirs(path)
        with open(os.path.join(path, "theme.json"), "w") as out:
            out.write(THEME_JSON)
        with open(os.path.join(path, "colors.tokens.json"), "w") as out:
            out.write(tokens(int(theme[1:])))  # the bytes the store holds
        with open(os.path.join(path, ".themed-release"), "w") as out:
            out.write(f"{generation}\n")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_quiet(pid, limit=180):
    """Until the replica used less than 50 ms of CPU in 2 s (its start's comparing and warming done)."""
    deadline = time.monotonic() + limit
    last = cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(2)
        now = cpu_seconds(pid)
        if now - last < 0.05:
            return
        last = now


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--themed", default=os.path.join(ROOT, ".build/release/themed"))
    parser.add_argument("--themes", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--restarts", type=int, default=3)
    args = parser.parse_args()
    themed = os.path.abspath(args.themed)
    work = tempfile.mkdtemp(prefix="themed-bench-replica-")
    store = cluster.Postgres()
    replica = None
    try:
        store.init()
        store.start()
        url = cluster.CLUSTER_URL
        subprocess.run([themed, "publish", "--no-wait", "--cluster", url, "base", os.path.join(ROOT, "themes/light")],
                       check=True, capture_output=True)
        generations = fill_store(url, args.themes)
        write_folder(os.path.join(work, "themes"), generations)
        print(f"bench-replica: {len(generations)} themes stored and in the replica's folder", flush=True)

        log = open(os.path.join(work, "replica.log"), "w")

        def start():
            """The replica started; the seconds from exec to ready, and its CPU then."""
            nonlocal replica
            started = time.monotonic()
            replica = subprocess.Popen([themed, "serve", "--cluster", url, "--themes", "themes", "--db", "index.sqlite", "--blobs", "blobs",
                                        "--host", "127.0.0.1", "--port", str(PORT)], cwd=work, stdout=log, stderr=log)
            if not cluster.wait_until(lambda: cluster.get(PORT, "/readyz")[0] == 200, 300, step=0.01):
                sys.exit(f"bench-replica: the replica was not ready in 300 s (its log: {work}/replica.log)")
            return time.monotonic() - started, cpu_seconds(replica.pid)

        ready, _ = start()
        print(f"bench-replica: ready after {ready:.1f} s (a first index of the folder)", flush=True)
        wait_quiet(replica.pid)

        source = os.path.join(work, "source", "t5")
        os.makedirs(source)
        with open(os.path.join(source, "theme.json"), "w") as out:
            out.write(THEME_JSON)
        walls, cpus = [], []
        for round in range(args.rounds):
            with open(os.path.join(source, "colors.tokens.json"), "w") as out:
                out.write(json.dumps({"brand": {"$type": "color", "$value": "#%06x" % (0x101010 * (round + 1) % 0xFFFFFF)}}))
            before = cpu_seconds(replica.pid)
            began = time.monotonic()
            published = subprocess.run([themed, "publish", "--cluster", url, "t5", source], capture_output=True, text=True)
            walls.append((time.monotonic() - began) * 1000)
            if published.returncode != 0:
                sys.exit(f"bench-replica: publish failed ({published.returncode}): {published.stdout}{published.stderr}")
            wait_quiet(replica.pid, limit=30)
            cpus.append(cpu_seconds(replica.pid) - before)
        log.flush()
        served = []
        for line in open(os.path.join(work, "replica.log"), errors="replace"):
            if "change served" in line:
                fields = dict(part.split("=", 1) for part in line.split() if "=" in part)
                served.append((int(fields.get("ms", 0)), int(fields.get("own_ms", 0))))
        served = served[-args.rounds:]

        def row(name, values, unit, digits=0):
            shown = " ".join(f"{v:.{digits}f}" for v in values)
            print(f"{name}: {shown} | median {statistics.median(values):.{digits}f} {unit}")
        print(f"bench-replica: {args.themes} themes, {args.rounds} publishes of t5, {themed}")
        row("publish, wall", walls, "ms")
        row("replica CPU a publish", cpus, "s", 2)
        if served:
            row("change served (replica)", [s[0] for s in served], "ms")
            row("  of which its own", [s[1] for s in served], "ms")

        readies, start_cpus = [], []
        for _ in range(args.restarts):
            replica.terminate()
            replica.wait(timeout=30)
            ready, cpu = start()
            readies.append(ready * 1000)
            start_cpus.append(cpu)
            wait_quiet(replica.pid)
        if readies:
            row("restart, exec to ready", readies, "ms")
            row("  CPU by then", start_cpus, "s", 2)
    finally:
        if replica is not None:
            replica.kill()
            replica.wait()
        store.discard()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
