#!/usr/bin/env python3
"""A throwaway themed cluster on loopback: PostgreSQL (initdb under var/cluster), three replicas
following it, and Varnish in front (config/varnish/themed.vcl).

  cluster.py up                  start everything, print the URLs, stop on Ctrl-C
  cluster.py test --seconds 60   wrk through Varnish while releases, switches, restarts and
                                 kills happen; fails unless every request succeeded, every
                                 replica served the new release in time with the same ETags,
                                 and every SSE client saw every change
"""
import argparse
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VAR = os.path.join(ROOT, "var", "cluster")
VARNISH_PORT = 8080
REPLICA_PORTS = [8081, 8082, 8083]  # as config/varnish/themed.vcl names them
PG_PORT = 55432
CLUSTER_URL = f"postgresql://postgres@127.0.0.1:{PG_PORT}/postgres?connect_timeout=2"


def log(message):
    print(f"cluster: {message}", flush=True)


def get(port, path, headers=None, timeout=5):
    """(status, headers, body) of one request, or (0, {}, b'') when nothing answered."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    except OSError:
        return 0, {}, b""


def put_active(port, theme):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("PUT", "/active", body=json.dumps({"theme": theme}), headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    return response.status


def wait_until(condition, seconds, step=0.01):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


class Postgres:
    def __init__(self, folder):
        self.folder = folder
        versions = sorted((v for v in os.listdir("/usr/lib/postgresql") if v.isdigit()), key=int)
        if not versions:
            sys.exit("cluster: PostgreSQL is not installed (apt-get install postgresql)")
        self.bin = f"/usr/lib/postgresql/{versions[-1]}/bin"

    def as_owner(self, *command):
        prefix = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        with open(os.path.join(self.folder, "pg_ctl.out"), "ab") as output:
            subprocess.run(prefix + list(command), check=True, stdout=output, stderr=output, stdin=subprocess.DEVNULL)

    def init(self):
        os.makedirs(self.folder, exist_ok=True)
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self.as_owner(f"{self.bin}/initdb", "-D", f"{self.folder}/data", "-A", "trust", "-U", "postgres", "--no-sync")

    def start(self):
        self.as_owner(f"{self.bin}/pg_ctl", "-D", f"{self.folder}/data", "-l", f"{self.folder}/log", "-w", "-t", "30", "-o",
                      f"-p {PG_PORT} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start")

    def stop(self):
        self.as_owner(f"{self.bin}/pg_ctl", "-D", f"{self.folder}/data", "-m", "fast", "-w", "stop")


class Replica:
    def __init__(self, themed, number, port):
        self.themed, self.number, self.port = themed, number, port
        self.folder = os.path.join(VAR, f"replica{number}")
        self.process = None
        os.makedirs(self.folder, exist_ok=True)
        with open(os.path.join(self.folder, "themed.json"), "w") as config:
            json.dump({"watch": False, "clusterUnreachableSeconds": 10, "purgeURLs": [f"http://127.0.0.1:{VARNISH_PORT}"],
                       "heartbeatSeconds": 2}, config)

    def start(self):
        log_file = open(os.path.join(self.folder, "themed.log"), "ab")
        self.process = subprocess.Popen(
            [self.themed, "serve", "--config", "themed.json", "--cluster", CLUSTER_URL, "--themes", "themes",
             "--db", "index.sqlite", "--blobs", "blobs", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=self.folder, stdout=log_file, stderr=log_file, stdin=subprocess.DEVNULL)
        if not wait_until(lambda: get(self.port, "/readyz")[0] == 200, 30, 0.05):
            sys.exit(f"cluster: replica {self.number} did not become ready (see {self.folder}/themed.log)")

    def stop(self, sig=signal.SIGTERM):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=30)
        return self.process.returncode if self.process else None


class Varnish:
    def __init__(self):
        self.folder = os.path.join(VAR, "varnish")
        self.process = None

    def start(self):
        os.makedirs(self.folder, exist_ok=True)
        log_file = open(os.path.join(VAR, "varnish.log"), "ab")
        self.process = subprocess.Popen(
            ["varnishd", "-F", "-a", f"127.0.0.1:{VARNISH_PORT}", "-f", os.path.join(ROOT, "config/varnish/themed.vcl"),
             "-n", self.folder, "-s", "malloc,128m", "-T", "none"],
            stdout=log_file, stderr=log_file, stdin=subprocess.DEVNULL)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def publish(themed, theme, path):
    started = time.monotonic()
    run = subprocess.run([themed, "publish", "--cluster", CLUSTER_URL, theme, path], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"publish {theme}: {run.stderr.strip()}")
    return started, time.monotonic()


class Cluster:
    def __init__(self, themed):
        self.themed = themed
        for port in [VARNISH_PORT] + REPLICA_PORTS:
            if get(port, "/", timeout=0.5)[0] != 0:
                sys.exit(f"cluster: port {port} is in use; stop what listens there first")
        shutil.rmtree(VAR, ignore_errors=True)
        os.makedirs(VAR)
        self.postgres = Postgres(os.path.join(VAR, "pg"))
        self.replicas = [Replica(themed, n + 1, port) for n, port in enumerate(REPLICA_PORTS)]
        self.varnish = Varnish()

    def __enter__(self):
        self.postgres.init()
        self.postgres.start()
        for theme in ("light", "dark", "brand"):
            publish(self.themed, theme, os.path.join(ROOT, "themes", theme))
        self.varnish.start()
        for replica in self.replicas:
            replica.start()
        if not wait_until(lambda: get(VARNISH_PORT, "/themes")[0] == 200, 30, 0.1):
            sys.exit(f"cluster: Varnish did not serve (see {VAR}/varnish.log)")
        return self

    def __exit__(self, *_):
        self.varnish.stop()
        for replica in self.replicas:
            replica.stop()
        try:
            self.postgres.stop()
        except subprocess.CalledProcessError:
            pass


class EventClient(threading.Thread):
    """An SSE client through Varnish that reconnects with Last-Event-ID, as browsers do, and also
    when its stream is silent for SILENCE seconds: the replicas send a heartbeat every 2 s, so a
    silent stream is a lost one."""

    SILENCE = 5

    def __init__(self):
        super().__init__(daemon=True)
        self.events = []  # (monotonic time, type, data)
        self.stopped = False
        self.reconnects = 0

    def run(self):
        last_id = None
        while not self.stopped:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", VARNISH_PORT, timeout=self.SILENCE)
                connection.request("GET", "/events", headers={"Last-Event-ID": last_id} if last_id else {})
                response = connection.getresponse()
                event_type, data = None, None
                while not self.stopped:
                    line = response.fp.readline()
                    if not line:
                        break
                    line = line.decode().rstrip("\n")
                    if line.startswith("id: "):
                        last_id = line[4:]
                    elif line.startswith("event: "):
                        event_type = line[7:]
                    elif line.startswith("data: "):
                        data = line[6:]
                    elif line == "" and event_type:
                        self.events.append((time.monotonic(), event_type, json.loads(data) if data else None))
                        event_type, data = None, None
            except (OSError, http.client.HTTPException, ValueError):
                pass
            self.reconnects += 1
            time.sleep(0.2)

    def saw(self, event_type, theme, after):
        """Whether the client saw this change after `after`, or a resync (it refetches all)."""
        return any(t >= after and (kind == "resync" or (kind == event_type and (data or {}).get("theme") == theme))
                   for t, kind, data in self.events)


def revision(port, theme):
    status, _, body = get(port, f"/themes/{theme}")
    if status != 200:
        return None
    return json.loads(body).get("revision")


def index_time(themed, folder):
    """How long indexing the theme takes here: the part of a replica's delay that is not ours to cut."""
    scratch = tempfile.mkdtemp()
    try:
        os.makedirs(f"{scratch}/themes")
        shutil.copytree(folder, f"{scratch}/themes/light")
        started = time.monotonic()
        subprocess.run([themed, "index", "--themes", f"{scratch}/themes", "--db", f"{scratch}/index.sqlite"], check=True,
                       capture_output=True)
        return time.monotonic() - started
    finally:
        shutil.rmtree(scratch)


def changed_light_theme(generation):
    """The sample light theme with a new primary colour: a release with new content."""
    folder = tempfile.mkdtemp() + "/light"
    shutil.copytree(os.path.join(ROOT, "themes/light"), folder)
    path = f"{folder}/Theme.xcassets/primary.colorset/Contents.json"
    with open(path) as source:
        text = source.read()
    red = f"0.{generation:03d}"
    text = re.sub(r'"red"\s*:\s*"[^"]*"', f'"red" : "{red}"', text, count=1)
    with open(path, "w") as target:
        target.write(text)
    return folder


def test(themed, seconds):
    failures = []
    with Cluster(themed) as cluster:
        clients = [EventClient() for _ in range(2)]
        for client in clients:
            client.start()
        time.sleep(1)
        urls = ["/themes/light/colors/primary", "/themes/current/colors/primary", "/themes/dark/images/logo?scale=2", "/themes/light"]
        script = os.path.join(VAR, "paths.lua")
        with open(script, "w") as lua:
            lua.write("paths = {" + ", ".join(f'"{u}"' for u in urls) + "}\n"
                      "counter = 0\nrequest = function()\n  counter = counter + 1\n"
                      "  return wrk.format('GET', paths[(counter % #paths) + 1])\nend\n"
                      "response = function(status, headers, body)\n"
                      "  if status >= 300 then io.write('status ' .. status .. ': ' .. string.sub(body, 1, 200) .. '\\n') end\nend\n")
        wrk = subprocess.Popen(["wrk", "-t2", "-c16", f"-d{seconds}s", "--latency", "-s", script, f"http://127.0.0.1:{VARNISH_PORT}"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        step = seconds / 7

        # 1. A new release of light: every replica serves it within its index time + 250 ms.
        time.sleep(step)
        folder = changed_light_theme(1)
        allowance = index_time(themed, folder) + 0.25
        before = {r.port: revision(r.port, "light") for r in cluster.replicas}
        _, committed = publish(themed, "light", folder)
        delays = {}
        for replica in cluster.replicas:
            if wait_until(lambda: revision(replica.port, "light") not in (None, before[replica.port]), 10, 0.005):
                delays[replica.number] = time.monotonic() - committed
        log(f"new release served after {', '.join(f'replica {n}: {d * 1000:.0f} ms' for n, d in sorted(delays.items()))}"
            f" (allowed: index time + 250 ms = {allowance * 1000:.0f} ms)")
        if len(delays) != len(cluster.replicas) or max(delays.values()) > allowance:
            failures.append(f"release not served in time everywhere: {delays}")
        etags = {r.number: get(r.port, "/themes/light/colors/primary")[1].get("etag") for r in cluster.replicas}
        if len(set(etags.values())) != 1 or None in etags.values():
            failures.append(f"ETags differ between replicas: {etags}")
        release_time = committed

        # 2. The active theme switched through Varnish: every replica follows.
        time.sleep(step)
        switched = time.monotonic()
        if put_active(VARNISH_PORT, "dark") != 200:
            failures.append("PUT /active through Varnish failed")
        if not wait_until(lambda: all(json.loads(get(r.port, "/active")[2] or b"{}").get("theme") == "dark" for r in cluster.replicas), 5):
            failures.append("not every replica switched to dark")

        # 3. SIGTERM one replica (drain) and start it again; 4. SIGKILL another and start it again.
        time.sleep(step)
        status = cluster.replicas[0].stop(signal.SIGTERM)
        if status != 0:
            failures.append(f"replica 1 exited {status} on SIGTERM")
        cluster.replicas[0].start()
        time.sleep(step)
        cluster.replicas[1].stop(signal.SIGKILL)
        cluster.replicas[1].start()

        # 5. PostgreSQL restarts: replicas keep serving and follow the next release.
        time.sleep(step)
        cluster.postgres.stop()
        time.sleep(1)
        cluster.postgres.start()
        folder = changed_light_theme(2)
        _, second_release = publish(themed, "light", folder)
        expected = None
        if wait_until(lambda: len({revision(r.port, "light") for r in cluster.replicas}) == 1, 15):
            expected = revision(cluster.replicas[0].port, "light")
        else:
            failures.append("replicas disagree on light after PostgreSQL restarted")

        output, _ = wrk.communicate()
        print(output, flush=True)
        changes = (("theme-reloaded", "light", release_time - 0.5), ("active-changed", "dark", switched - 0.5),
                   ("theme-reloaded", "light", second_release - 0.5))
        # Every client ends up seeing every change: one whose stream went silent (lost with a
        # replica that was killed, or in the front door) notices within SILENCE seconds and
        # resumes with Last-Event-ID, from the history or with a resync.
        wait_until(lambda: all(client.saw(*change) for client in clients for change in changes), 2 * EventClient.SILENCE)
        for client in clients:
            client.stopped = True
        for number, client in enumerate(clients, 1):
            for kind, theme, after in changes:
                if not client.saw(kind, theme, after):
                    failures.append(f"SSE client {number} missed {kind} {theme}")
            log(f"SSE client {number}: {len(client.events)} events, {client.reconnects} reconnects")

        requests = re.search(r"(\d+) requests in", output)
        non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
        errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
        log(f"{requests.group(1) if requests else '?'} requests through Varnish, "
            f"{non2xx.group(1) if non2xx else 0} non-2xx, socket errors: {errors.groups() if errors else 'none'}")
        if not requests or non2xx or errors:
            failures.append("wrk saw failed or non-2xx requests")
        if expected is None:
            failures.append("no common revision after the last release")
    for failure in failures:
        log("FAILED: " + failure)
    if failures:
        sys.exit(1)
    log("passed")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["up", "test"])
    parser.add_argument("--themed", default=os.path.join(ROOT, ".build/release/themed"))
    parser.add_argument("--seconds", type=int, default=60)
    arguments = parser.parse_args()
    for tool in ["varnishd", "wrk"] if arguments.command == "test" else ["varnishd"]:
        if not shutil.which(tool):
            sys.exit(f"cluster: {tool} is not installed (make cluster installs it)")
    if arguments.command == "test":
        test(arguments.themed, arguments.seconds)
        return
    with Cluster(arguments.themed):
        log(f"PostgreSQL  {CLUSTER_URL}")
        for port in REPLICA_PORTS:
            log(f"replica     http://127.0.0.1:{port}/")
        log(f"Varnish     http://127.0.0.1:{VARNISH_PORT}/   (the gallery; curl http://127.0.0.1:{VARNISH_PORT}/themes)")
        log(f"publish:    {arguments.themed} publish --cluster '{CLUSTER_URL}' THEME PATH")
        log("Ctrl-C stops everything")
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
