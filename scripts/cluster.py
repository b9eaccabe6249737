#!/usr/bin/env python3
"""A throwaway themed cluster on loopback: PostgreSQL (initdb under var/cluster), three replicas
following it, Varnish caching (config/varnish/themed.vcl) and HAProxy in front of both
(config/haproxy/themed.cfg), sending /events to the replicas and the rest to Varnish.

  cluster.py up                  start everything, print the URLs, stop on Ctrl-C
  cluster.py test --seconds 60   wrk and a few hundred event streams through the front door while
                                 releases, switches, restarts, kills and a rolling restart happen;
                                 fails unless every request succeeded, every replica served the
                                 new release in time with the same ETags, and every stream saw
                                 every change
  cluster.py up --shards 2       two shard groups of two replicas (8081-8084), Varnish alone in front
                                 routing each theme to its group (config/varnish/themed-backends-2-shards.vcl)
  cluster.py lag --rounds 5      issue 53.4: a CLI release and a PUT /active timed until they show
                                 through Varnish (alone in front), under two wrk clients of 16
                                 connections; fails above 300 ms
  cluster.py shards              the shard test: 40 tenants (children of a base) on two groups; each
                                 replica holds and lists only its shard's themes plus ancestors,
                                 every tenant is served through Varnish without a 421, a direct
                                 request to the wrong group is 421 naming the owner, a release is
                                 seen through the door, a group survives losing a replica
  cluster.py shutdown            `up` as a newcomer drives it: the banner's token and PUT /active
                                 line work, a PUT without a token is a 401 saying where tokens come
                                 from, one replica restarted by hand, then SIGTERM: everything (that
                                 replica too) is gone and every port free within 10 s
  cluster.py streams --count 9000
                                 the stream benchmark: connect N streams through the front door,
                                 time active switches to all of them, roll every replica, then
                                 1,000 stalled readers on one replica (--door varnish: Varnish alone)
"""
import argparse
import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VAR = os.path.join(ROOT, "var", "cluster")
DOOR_PORT = 8080      # HAProxy: the front door (config/haproxy/themed.cfg)
VARNISH_PORT = 8090   # behind it; with --door varnish, Varnish itself on DOOR_PORT
REPLICA_PORTS = [8081, 8082, 8083]  # as the VCL and the HAProxy config name them
SHARDED_PORTS = [8081, 8082, 8083, 8084]  # as themed-backends-2-shards.vcl names them: two a group
# Below Linux's ephemeral range (32768-60999): an outgoing connection is never given it, as one
# was given 55432 during a CI run and PostgreSQL then could not listen there.
PG_PORT = 15432
# Connecting takes more than 2 s when wrk saturates this machine's two cores (issue 53.4's lag
# test): the store is slow to fork a backend, not gone (a stopped store refuses at once).
CLUSTER_URL = f"postgresql://postgres@127.0.0.1:{PG_PORT}/postgres?connect_timeout=10"


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


# The replicas' activeToken: with a cluster store every change needs a token, loopback included.
OPERATOR_TOKEN = "cluster-operator-token"
OPERATOR_HEADERS = {"Content-Type": "application/json", "Authorization": "Bearer " + OPERATOR_TOKEN}


def put_active(port, theme, timeout=5):
    """The status of PUT /active, or 0 when nothing answered within `timeout`."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.request("PUT", "/active", body=json.dumps({"theme": theme}), headers=OPERATOR_HEADERS)
        response = connection.getresponse()
        response.read()
        return response.status
    except OSError:
        return 0


def send(port, method, path, document, timeout=5):
    """(status, JSON answer) of a request with a JSON body, or (0, {}) when nothing answered."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.request(method, path, body=json.dumps(document), headers=OPERATOR_HEADERS)
        response = connection.getresponse()
        body = response.read()
        return response.status, json.loads(body or b"{}")
    except (OSError, ValueError):
        return 0, {}


def bucket(theme, seed, client):
    """A client's rollout bucket as every replica computes it: SHA-256("theme:seed:client"), the
    first 8 bytes big-endian, modulo 10,000."""
    return int.from_bytes(hashlib.sha256(f"{theme}:{seed}:{client}".encode()).digest()[:8], "big") % 10_000


def assigned(port, alias, client):
    status, _, body = get(port, f"/assign/{alias}?client={client}")
    return json.loads(body).get("generation") if status == 200 else None


def wait_until(condition, seconds, step=0.01):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


class Postgres:
    """A throwaway server from Debian's package. Its folder is under /tmp unless given: the server
    runs as `postgres`, which cannot reach a checkout under a private home (CI's /check)."""

    def __init__(self, folder=None):
        self.folder = folder or tempfile.mkdtemp(prefix="themed-cluster-pg-")
        self.temporary = folder is None
        versions = sorted((v for v in os.listdir("/usr/lib/postgresql") if v.isdigit()), key=int)
        if not versions:
            sys.exit("cluster: PostgreSQL is not installed (apt-get install postgresql)")
        self.bin = f"/usr/lib/postgresql/{versions[-1]}/bin"

    def as_owner(self, *command):
        prefix = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        transcript = os.path.join(self.folder, "pg_ctl.out")
        with open(transcript, "ab") as output:
            run = subprocess.run(prefix + list(command), stdout=output, stderr=output, stdin=subprocess.DEVNULL)
        if run.returncode != 0:
            # What the server said is the reason; without it a failure in CI is a bare exit status.
            for name in (transcript, os.path.join(self.folder, "log")):
                if os.path.exists(name):
                    with open(name, errors="replace") as said:
                        sys.stderr.write(f"--- {name}\n" + "".join(said.readlines()[-20:]))
            raise subprocess.CalledProcessError(run.returncode, run.args)

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

    def discard(self):
        """Stopped for good: the server (if it runs) and, when this made it, the folder."""
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass
        if self.temporary:
            shutil.rmtree(self.folder, ignore_errors=True)


def shard_owner(theme, count):
    """The shard of `count` that owns `theme` (docs/DEPLOY.md "Shards"): the highest score, the
    last four bytes of SHA-256("N:theme") read little-endian; a tie goes to the lower N."""
    scores = [(int.from_bytes(hashlib.sha256(f"{n}:{theme}".encode()).digest()[28:], "little"), -n) for n in range(1, count + 1)]
    return -max(scores)[1]


class Replica:
    def __init__(self, themed, number, port, varnish_port, shard=None):
        self.themed, self.number, self.port, self.shard = themed, number, port, shard
        self.folder = os.path.join(VAR, f"replica{number}")
        self.process = None
        os.makedirs(self.folder, exist_ok=True)
        # Room for every stream of the benchmark on one replica (while the others restart).
        with open(os.path.join(self.folder, "themed.json"), "w") as config:
            settings = {"watch": False, "activeToken": OPERATOR_TOKEN, "clusterUnreachableSeconds": 10, "purgeURLs": [f"http://127.0.0.1:{varnish_port}"],
                        "heartbeatSeconds": 2, "maxConnections": 12000,
                        # HAProxy and Varnish on this host append the client to X-Forwarded-For.
                        "trustedProxies": ["127.0.0.1"]}
            if shard:
                settings["shard"] = shard
            json.dump(settings, config)

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

    def stop_strays(self):
        """Stops a replica started by hand in this replica's folder (an operator restarting one
        while `make cluster` runs): not this script's child, it would outlive the cluster and keep
        the port. SIGTERM, then SIGKILL after 8 s."""
        strays = processes_in(self.folder)
        for pid in strays:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 8
        while strays and time.monotonic() < deadline:
            strays = [pid for pid in strays if alive(pid)]
            time.sleep(0.05)
        for pid in strays:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def alive(pid):
    """Whether `pid` runs (an exited child nobody has reaped yet, a zombie, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def processes_in(folder):
    """The processes whose working folder is `folder` (a replica's), by /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            if os.readlink(f"/proc/{entry}/cwd") == folder:
                found.append(int(entry))
        except OSError:
            pass
    return found


class Varnish:
    def __init__(self, port, shards=1):
        # Under /tmp, readable by all: varnishd reads its VCL and keeps its working folder as its
        # own user, which cannot reach a checkout under a private home (CI's /check).
        self.home = tempfile.mkdtemp(prefix="themed-varnish-")
        os.chmod(self.home, 0o755)
        self.folder = os.path.join(self.home, "work")
        self.port = port
        for name in os.listdir(os.path.join(ROOT, "config/varnish")):
            shutil.copy(os.path.join(ROOT, "config/varnish", name), self.home)
        if shards > 1:
            # themed.vcl includes the themed-backends.vcl beside it: the two-group one here.
            shutil.copy(os.path.join(ROOT, "config/varnish/themed-backends-2-shards.vcl"), os.path.join(self.home, "themed-backends.vcl"))
        for name in os.listdir(self.home):
            os.chmod(os.path.join(self.home, name), 0o644)
        self.vcl = os.path.join(self.home, "themed.vcl")
        self.process = None

    def start(self):
        os.makedirs(self.folder, exist_ok=True)
        log_file = open(os.path.join(VAR, "varnish.log"), "ab")
        self.process = subprocess.Popen(
            ["varnishd", "-F", "-a", f"127.0.0.1:{self.port}", "-f", self.vcl,
             "-n", self.folder, "-s", "malloc,128m", "-T", "none"],
            stdout=log_file, stderr=log_file, stdin=subprocess.DEVNULL)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        shutil.rmtree(self.home, ignore_errors=True)


class HAProxy:
    def __init__(self):
        self.process = None

    def start(self):
        log_file = open(os.path.join(VAR, "haproxy.log"), "ab")
        # -db: in the foreground, logging to standard error.
        self.process = subprocess.Popen(["haproxy", "-db", "-f", os.path.join(ROOT, "config/haproxy/themed.cfg")],
                                        stdout=log_file, stderr=log_file, stdin=subprocess.DEVNULL)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def publish(themed, theme, path, rollout=None):
    """(started, committed) of `themed publish`; with `rollout`, also the generation it made."""
    started = time.monotonic()
    extra = ["--rollout", str(rollout)] if rollout is not None else []
    run = subprocess.run([themed, "publish", "--cluster", CLUSTER_URL, theme, path] + extra, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"publish {theme}: {run.stderr.strip()}")
    if rollout is not None:
        return started, time.monotonic(), int(run.stdout.split()[3])
    return started, time.monotonic()


class Cluster:
    """door: "haproxy" (HAProxy on DOOR_PORT, Varnish behind it) or "varnish" (Varnish alone on
    DOOR_PORT, the topology before HAProxy, kept for comparison). shards=2: four replicas in two
    shard groups, Varnish alone in front (HAProxy's /events route does not know the groups)."""

    def __init__(self, themed, door="haproxy", shards=1, publishing=("light", "dark", "brand")):
        self.themed = themed
        self.publishing = publishing
        door = "varnish" if shards > 1 else door
        varnish_port = VARNISH_PORT if door == "haproxy" else DOOR_PORT
        ports = SHARDED_PORTS if shards > 1 else REPLICA_PORTS
        for port in [DOOR_PORT, VARNISH_PORT] + ports:
            if get(port, "/", timeout=0.5)[0] != 0:
                sys.exit(f"cluster: port {port} is in use; stop what listens there first")
        shutil.rmtree(VAR, ignore_errors=True)
        os.makedirs(VAR)
        self.postgres = Postgres()
        per_group = len(ports) // shards
        self.replicas = [Replica(themed, n + 1, port, varnish_port, f"{n // per_group + 1}/{shards}" if shards > 1 else None)
                         for n, port in enumerate(ports)]
        self.varnish = Varnish(varnish_port, shards)
        self.haproxy = HAProxy() if door == "haproxy" else None

    def __enter__(self):
        # A start that fails stops what it started: nothing is left listening on the ports.
        try:
            self.postgres.init()
            self.postgres.start()
            for theme in self.publishing:
                publish(self.themed, theme, os.path.join(ROOT, "themes", theme))
            self.varnish.start()
            if self.haproxy:
                self.haproxy.start()
            for replica in self.replicas:
                replica.start()
            if not wait_until(lambda: get(DOOR_PORT, "/themes")[0] == 200, 30, 0.1):
                with open(os.path.join(VAR, "varnish.log"), errors="replace") as said:
                    sys.stderr.write(said.read()[-2000:])
                sys.exit(f"cluster: the front door did not serve (see {VAR}/haproxy.log and {VAR}/varnish.log)")
        except BaseException:
            self.__exit__()
            raise
        # The door's health checks see every replica before the test leans on them.
        wait_until(lambda: all(get(r.port, "/readyz")[0] == 200 for r in self.replicas), 10, 0.1)
        time.sleep(2.5 if self.haproxy else 0)
        return self

    def rolling_restart(self, between=None, away=None):
        """SIGTERM, restart and wait for each replica in turn (a deploy); `away(n)` runs while replica n is
        stopped, `between(n)` after it is back. Returns when the last replica was started again (monotonic seconds)."""
        last_start = None
        for replica in self.replicas:
            status = replica.stop(signal.SIGTERM)
            if status != 0:
                raise RuntimeError(f"replica {replica.number} exited {status} on SIGTERM")
            if away:
                away(replica.number)
            replica.start()
            last_start = time.monotonic()
            # The front door's health check (1 s, rise 2) takes it back before the next one goes.
            time.sleep(2.5)
            if between:
                between(replica.number)
        return last_start

    def __exit__(self, *_):
        if self.haproxy:
            self.haproxy.stop()
        self.varnish.stop()
        # Every replica drains at once (each takes its drain's seconds), the hand-started ones too.
        stoppers = [threading.Thread(target=lambda r=replica: (r.stop(), r.stop_strays())) for replica in self.replicas]
        for stopper in stoppers:
            stopper.start()
        for stopper in stoppers:
            stopper.join()
        self.postgres.discard()


def shutdown_test(themed):
    """`make cluster` as a newcomer drives it: up, one replica restarted by hand (as docs/DEPLOY.md
    shows), then SIGTERM: PostgreSQL, Varnish, HAProxy and every replica, the hand-started one
    too, are gone within 10 s and every port is free."""
    up = subprocess.Popen([sys.executable, os.path.abspath(__file__), "up", "--themed", themed], stdout=subprocess.PIPE, text=True,
                          start_new_session=True)
    banner = []
    for line in up.stdout:
        banner.append(line)
        if "stops everything" in line:
            break
    failures = []
    text = "".join(banner)
    if f"token:      {OPERATOR_TOKEN}" not in text or "curl -X PUT -H 'Authorization: Bearer" not in text:
        failures.append("the banner names no operator token and no working PUT /active line:\n" + text)
    switched = put_active(DOOR_PORT, "dark", timeout=10)
    if switched != 200:
        failures.append(f"the banner's PUT /active answered {switched}")
    connection = http.client.HTTPConnection("127.0.0.1", DOOR_PORT, timeout=10)
    connection.request("PUT", "/active", body=json.dumps({"theme": "dark"}), headers={"Content-Type": "application/json"})
    refused = connection.getresponse()
    said = refused.read().decode(errors="replace")
    if refused.status != 401 or "activeToken" not in said:
        failures.append(f"a PUT /active without a token answered {refused.status}: {said[:200]} (a 401 naming where a token comes from)")
    # Replica 1 restarted by hand, as an operator would: the same command, in its folder.
    folder = os.path.join(VAR, "replica1")
    for pid in processes_in(folder):
        os.kill(pid, signal.SIGTERM)
    wait_until(lambda: not processes_in(folder) and get(REPLICA_PORTS[0], "/healthz")[0] == 0, 15, 0.05)
    subprocess.Popen([themed, "serve", "--config", "themed.json", "--cluster", CLUSTER_URL, "--themes", "themes", "--db", "index.sqlite",
                      "--blobs", "blobs", "--host", "127.0.0.1", "--port", str(REPLICA_PORTS[0])],
                     cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, start_new_session=True)
    if not wait_until(lambda: get(REPLICA_PORTS[0], "/readyz")[0] == 200, 30, 0.05):
        failures.append("the replica restarted by hand did not become ready")
    started = time.monotonic()
    up.send_signal(signal.SIGTERM)
    try:
        up.wait(timeout=10)
    except subprocess.TimeoutExpired:
        failures.append("make cluster did not exit within 10 s of SIGTERM")
        up.kill()
    took = time.monotonic() - started
    ports = [DOOR_PORT, VARNISH_PORT, PG_PORT] + REPLICA_PORTS
    wait_until(lambda: all(not port_open(port) for port in ports), max(0.1, 10 - took), 0.05)
    still = [port for port in ports if port_open(port)]
    if still:
        failures.append(f"still listening after SIGTERM: {still}")
    left = [pid for n in range(1, len(REPLICA_PORTS) + 1) for pid in processes_in(os.path.join(VAR, f"replica{n}"))]
    if left:
        failures.append(f"replica processes left: {left}")
    if failures:
        sys.exit("cluster shutdown: " + "; ".join(failures))
    log(f"shutdown: every part stopped {took:.1f} s after SIGTERM, the replica restarted by hand too; the banner's token switched the theme")


def port_open(port):
    """Whether something accepts connections on 127.0.0.1:`port`."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class StreamClient:
    """Many SSE clients in one process (scripts/stream-client.c): each parses the stream as
    EventSource does and reconnects as ThemedClient does (the server's retry:, doubled per failure,
    with jitter), resuming with Last-Event-ID. Every event each stream receives is logged."""

    BINARY = os.path.join(ROOT, "var", "tools", "stream-client")

    @classmethod
    def build(cls):
        source = os.path.join(ROOT, "scripts", "stream-client.c")
        if not os.path.exists(cls.BINARY) or os.path.getmtime(cls.BINARY) < os.path.getmtime(source):
            os.makedirs(os.path.dirname(cls.BINARY), exist_ok=True)
            subprocess.run(["cc", "-O2", "-o", cls.BINARY, source], check=True)

    def __init__(self, count, port=DOOR_PORT, name="streams", stall=False):
        self.build()
        self.count = count
        self.log_path = os.path.join(VAR, f"{name}.log")
        self.status_path = os.path.join(VAR, f"{name}.status")
        command = [self.BINARY, "--port", str(port), "--streams", str(count), "--out", self.log_path, "--status", self.status_path,
                   "--sources", str(max(1, min(200, count // 50)))]
        self.started = time.monotonic()
        self.process = subprocess.Popen(command + (["--stall"] if stall else []), stdin=subprocess.DEVNULL)

    def status(self):
        try:
            with open(self.status_path) as file:
                words = file.read().split()
            return {words[i]: int(words[i + 1]) for i in range(0, len(words) - 1, 2)}
        except (OSError, ValueError):
            return {}

    def wait_open(self, seconds):
        """Seconds until every stream is open, or None."""
        if wait_until(lambda: self.status().get("open", 0) >= self.count, seconds, 0.05):
            return time.monotonic() - self.started
        return None

    def stop(self):
        """Ends the client and returns what each stream received: {stream: [(time, type, id, theme)]}."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        streams = {}
        with open(self.log_path) as file:
            for line in file:
                parts = line.split()
                if len(parts) == 5:
                    streams.setdefault(int(parts[0]), []).append((int(parts[1]) / 1e9, parts[2], parts[3], parts[4]))
        return streams


def missed_changes(streams, count, changes):
    """For each change (type, theme, made at), the streams that saw neither it after it was made
    nor a resync (which makes a client refetch everything)."""
    missed = {}
    for change in changes:
        kind, theme, after = change
        missing = [n for n in range(count)
                   if not any(t >= after and (k == "resync" or (k == kind and th == theme)) for t, k, _, th in streams.get(n, []))]
        if missing:
            missed[change] = missing
    return missed


def delivery(streams, count, kind, theme, after):
    """Seconds from `after` until each stream received the event, sorted; streams that did not are left out."""
    times = []
    for n in range(count):
        seen = [t for t, k, _, th in streams.get(n, []) if t >= after and k == kind and th == theme]
        if seen:
            times.append(min(seen) - after)
    return sorted(times)


def percentile(values, fraction):
    return values[min(len(values) - 1, int(fraction * len(values)))] if values else float("nan")


def process_tree(pid):
    """The process and its children (Varnish's worker is a child of its manager)."""
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [pid] + [int(child) for child in children]


def rss_mb(pid):
    """Resident memory of a process and its children, in MB."""
    total = 0
    for p in process_tree(pid):
        try:
            with open(f"/proc/{p}/status") as status:
                total += sum(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        except OSError:
            pass
    return total / 1024


def send_queue_bytes(port):
    """Bytes waiting in the kernel's send queues of the connections a local port accepted."""
    run = subprocess.run(["ss", "-tnH", "state", "established", f"( sport = :{port} )"], capture_output=True, text=True)
    return sum(int(line.split()[1]) for line in run.stdout.splitlines() if len(line.split()) > 1 and line.split()[1].isdigit())


def thread_count(pid):
    total = 0
    for p in process_tree(pid):
        try:
            total += len(os.listdir(f"/proc/{p}/task"))
        except OSError:
            pass
    return total


def revision(port, theme):
    status, _, body = get(port, f"/themes/{theme}")
    if status != 200:
        return None
    return json.loads(body).get("revision")


def watch_door(seen, kind, since, condition):
    """Polls the front door until `condition` holds; notes the seconds since `since` in `seen`."""
    if wait_until(condition, 5, 0.002):
        seen[kind] = time.monotonic() - since


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
    return changed_theme("light", generation)


def changed_theme(theme, generation):
    """A sample theme with a new primary colour: a release with new content."""
    folder = tempfile.mkdtemp() + "/" + theme
    shutil.copytree(os.path.join(ROOT, "themes", theme), folder)
    path = f"{folder}/Theme.xcassets/primary.colorset/Contents.json"
    with open(path) as source:
        text = source.read()
    red = f"0.{generation:03d}"
    text = re.sub(r'"red"\s*:\s*"[^"]*"', f'"red" : "{red}"', text, count=1)
    with open(path, "w") as target:
        target.write(text)
    return folder


TEST_STREAMS = 300


def test(themed, seconds, door_ms=300):
    failures = []
    with Cluster(themed) as cluster:
        streams = StreamClient(TEST_STREAMS)
        if streams.wait_open(30) is None:
            failures.append(f"only {streams.status().get('open', 0)} of {TEST_STREAMS} streams opened through the front door")
        urls = ["/themes/light/colors/primary", "/themes/current/colors/primary", "/themes/dark/images/logo?scale=2", "/themes/light"]
        script = os.path.join(VAR, "paths.lua")
        with open(script, "w") as lua:
            lua.write("paths = {" + ", ".join(f'"{u}"' for u in urls) + "}\n"
                      "counter = 0\nrequest = function()\n  counter = counter + 1\n"
                      "  return wrk.format('GET', paths[(counter % #paths) + 1])\nend\n"
                      "response = function(status, headers, body)\n"
                      "  if status >= 300 then io.write('status ' .. status .. ': ' .. string.sub(body, 1, 200) .. '\\n') end\nend\n")
        # The load lasts through the store's outage (as long as the run's steps) and the rolling
        # restart at the end (about 15 s) too.
        outage = seconds
        wrk = subprocess.Popen(["wrk", "-t2", "-c16", f"-d{seconds + outage + 20}s", "--latency", "-s", script, f"http://127.0.0.1:{DOOR_PORT}"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        step = seconds / 7

        # 1. A new release of light: every replica serves it within its index time + 250 ms.
        time.sleep(step)
        folder = changed_light_theme(1)
        allowance = index_time(themed, folder) + 0.25
        before = {r.port: revision(r.port, "light") for r in cluster.replicas}
        door_before = get(DOOR_PORT, "/themes/light/colors/primary")[1].get("etag")
        _, committed = publish(themed, "light", folder)
        door_seen = {}
        watch_door(door_seen, "release", committed, lambda: get(DOOR_PORT, "/themes/light/colors/primary")[1].get("etag") not in (None, door_before))
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

        # 2. The active theme switched through the front door: every replica follows.
        time.sleep(step)
        dark_primary = get(DOOR_PORT, "/themes/dark/colors/primary")[1].get("etag")
        switched = time.monotonic()
        if put_active(DOOR_PORT, "dark") != 200:
            failures.append("PUT /active through the front door failed")
        watch_door(door_seen, "switch", switched, lambda: get(DOOR_PORT, "/themes/current/colors/primary")[1].get("etag") == dark_primary)
        if not wait_until(lambda: all(json.loads(get(r.port, "/active")[2] or b"{}").get("theme") == "dark" for r in cluster.replicas), 5):
            failures.append("not every replica switched to dark")

        # 2b. A rollout (issue 44): a release of light to 10% of clients behind an alias, widened
        # to 50% through the door; every replica and every stream follows within 500 ms (p99),
        # and what a client reads through the door (its assignment, its pinned base) within 300 ms.
        time.sleep(step / 2)
        status, _ = send(DOOR_PORT, "PUT", "/aliases/production", {"theme": "light"})
        if status != 200:
            failures.append(f"PUT /aliases/production through the door: {status}")
        _, _, rolled_out = publish(themed, "light", changed_light_theme(3), rollout=10)
        # Clients out at 10% and in at 50%: the ones the widening moves.
        movers = [c for c in (f"client-{n}" for n in range(2000)) if 1000 <= bucket("light", rolled_out, c) < 5000][:50]
        if not wait_until(lambda: all(assigned(r.port, "production", movers[0]) not in (None, rolled_out) for r in cluster.replicas), 5):
            failures.append("the rollout at 10% did not reach every replica")
        # Each replica and the door are watched from before the change is sent, side by side.
        rollout_seen = {}
        widened = time.monotonic()

        def watch(replica):
            if wait_until(lambda: assigned(replica.port, "production", movers[0]) == rolled_out, 5, 0.002):
                rollout_seen[replica.number] = time.monotonic() - widened
        watchers = [threading.Thread(target=watch, args=(replica,)) for replica in cluster.replicas]
        watchers.append(threading.Thread(target=watch_door, args=(door_seen, "rollout", widened,
                                                                  lambda: assigned(DOOR_PORT, "production", movers[-1]) == rolled_out)))
        for watcher in watchers:
            watcher.start()
        status, answer = send(DOOR_PORT, "PUT", "/themes/light/rollout", {"generation": rolled_out, "percent": 50})
        answered = time.monotonic() - widened
        if status != 200 or answer.get("percent") != 50:
            failures.append(f"PUT /themes/light/rollout through the door: {status} {answer}")
        for watcher in watchers:
            watcher.join()
        if not all(assigned(replica.port, "production", c) == rolled_out for replica in cluster.replicas for c in movers):
            failures.append("a replica does not assign the widened rollout to every client it moved")
        pinned = get(DOOR_PORT, f"/themes/light@{rolled_out}/colors/primary")
        if pinned[0] != 200 or "immutable" not in pinned[1].get("cache-control", ""):
            failures.append(f"the rollout's pinned base through the door: {pinned[0]} {pinned[1].get('cache-control')}")
        log(f"rollout widened to 50%: replicas assign it after {', '.join(f'replica {n}: {d * 1000:.0f} ms' for n, d in sorted(rollout_seen.items()))}"
            f" (the PUT answered after {answered * 1000:.0f} ms, once its replica followed it)")
        if len(rollout_seen) != len(cluster.replicas) or max(rollout_seen.values()) > 0.5:
            failures.append(f"rollout change not at every replica within 500 ms: {rollout_seen}")
        log("through the door (cached answers included): " + ", ".join(f"{kind} seen after {delay * 1000:.0f} ms" for kind, delay in door_seen.items()))
        for kind in ("release", "switch", "rollout"):
            if door_seen.get(kind, 99) > door_ms / 1000:
                failures.append(f"the {kind} was not what a client reads through the door within {door_ms} ms: {door_seen.get(kind)}")

        # 3. SIGTERM one replica (drain) and start it again; 4. SIGKILL another and start it again.
        time.sleep(step)
        status = cluster.replicas[0].stop(signal.SIGTERM)
        if status != 0:
            failures.append(f"replica 1 exited {status} on SIGTERM")
        cluster.replicas[0].start()
        time.sleep(step)
        cluster.replicas[1].stop(signal.SIGKILL)
        cluster.replicas[1].start()

        # 5. PostgreSQL goes away for longer than clusterUnreachableSeconds (10 s here): replicas
        # keep serving and stay ready (the door keeps sending them traffic; wrk's count of non-2xx
        # below covers it), /healthz says the store is unreachable; then it comes back and they
        # follow the next release.
        time.sleep(step)
        cluster.postgres.stop()
        stopped = time.monotonic()
        unready, reported = set(), set()
        while time.monotonic() - stopped < outage:
            for replica in cluster.replicas:
                if get(replica.port, "/readyz")[0] != 200:
                    unready.add(replica.number)
                if b'"reachable":false' in (get(replica.port, "/healthz")[2] or b""):
                    reported.add(replica.number)
            time.sleep(0.5)
        cluster.postgres.start()
        log(f"PostgreSQL stopped for {outage} s under load: replicas not ready at some point: {sorted(unready) or 'none'}; "
            f"store reported unreachable in /healthz by replicas {sorted(reported)}")
        if unready:
            failures.append(f"replicas {sorted(unready)} turned not ready while the store was down")
        if outage > 12 and len(reported) != len(cluster.replicas):
            failures.append(f"only replicas {sorted(reported)} reported the store unreachable in /healthz")
        folder = changed_light_theme(2)
        _, second_release = publish(themed, "light", folder)
        expected = None
        if wait_until(lambda: len({revision(r.port, "light") for r in cluster.replicas}) == 1, 15):
            expected = revision(cluster.replicas[0].port, "light")
        else:
            failures.append("replicas disagree on light after PostgreSQL restarted")

        # 6. A deploy: every replica in turn gets SIGTERM and starts again, a switch made while
        # each is down; the streams move between replicas and resume by Last-Event-ID, also on a
        # replica that started after the id they carry (it replays from the store's history).
        rolled = []

        def switch_while_away(number):
            theme = "dark" if number == 2 else "light"
            rolled.append((theme, time.monotonic()))
            if put_active(DOOR_PORT, theme) != 200:
                failures.append("PUT /active through the front door failed during the rolling restart")
        time.sleep(step)
        try:
            cluster.rolling_restart(away=switch_while_away)
        except RuntimeError as error:
            failures.append(str(error))

        output, _ = wrk.communicate()
        print(output, flush=True)
        changes = [("theme-reloaded", "light", release_time - 0.5), ("active-changed", "dark", switched - 0.5),
                   ("assignment-changed", "light", widened - 0.5),
                   ("theme-reloaded", "light", second_release - 0.5)] + [("active-changed", theme, t - 0.5) for theme, t in rolled]
        # Every stream ends up seeing every change, replayed by Last-Event-ID after a move or as a
        # resync; the streams of a killed replica notice when the door closes them.
        wait_until(lambda: streams.status().get("open", 0) >= TEST_STREAMS, 15, 0.1)
        time.sleep(1)
        received = streams.stop()
        missed = missed_changes(received, TEST_STREAMS, changes)
        for (kind, theme, _), numbers in missed.items():
            failures.append(f"{len(numbers)} of {TEST_STREAMS} streams missed {kind} {theme}")
        resyncs = sum(1 for events in received.values() for _, kind, _, _ in events if kind == "resync")
        told = delivery(received, TEST_STREAMS, "assignment-changed", "light", widened)
        log(f"rollout change to {len(told)} of {TEST_STREAMS} streams: p50 {percentile(told, 0.5) * 1000:.0f} ms, "
            f"p99 {percentile(told, 0.99) * 1000:.0f} ms")
        if len(told) < TEST_STREAMS or percentile(told, 0.99) > 0.5:
            failures.append(f"the rollout change reached {len(told)} streams, p99 {percentile(told, 0.99) * 1000:.0f} ms (allowed 500)")
        final = streams.status()
        log(f"{TEST_STREAMS} streams: {sum(len(e) for e in received.values())} events, {final.get('reconnects', 0)} reconnects, "
            f"{resyncs} resyncs, {len(missed)} changes missed by some stream")
        # Every replica replays from the store's history: a stream that moves never has to refetch.
        if resyncs:
            failures.append(f"{resyncs} resyncs (each a client refetching everything it shows)")

        requests = re.search(r"(\d+) requests in", output)
        non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
        errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
        log(f"{requests.group(1) if requests else '?'} requests through the front door, "
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


def lag_test(themed, rounds):
    """Issue 53.4: how long after a change returns the new answer shows through Varnish while two
    wrk clients (16 connections each) saturate it. Varnish alone in front of three replicas that
    purge it (purgeURLs); the change made as operators make it: `themed publish --cluster` (the
    CLI, straight to the store) and PUT /active through Varnish. Each is timed from the moment the
    command or request returns to the first answer through Varnish that is new (a switch also at
    each replica), and each release is watched for a second after it shows: the old answer must
    not come back (a fetch begun before a purge and kept after it). Fails if a change takes more
    than 300 ms through Varnish, or an old answer comes back."""
    failures = []
    with Cluster(themed, door="varnish") as cluster:
        urls = ["/themes/dark/colors/primary", "/themes/current/colors/primary", "/themes/dark/images/logo?scale=2", "/themes/dark/colors"]
        script = os.path.join(VAR, "lag.lua")
        with open(script, "w") as lua:
            lua.write("paths = {" + ", ".join(f'"{u}"' for u in urls) + "}\n"
                      "counter = 0\nrequest = function()\n  counter = counter + 1\n"
                      "  return wrk.format('GET', paths[(counter % #paths) + 1])\nend\n")
        duration = rounds * 6 + 10
        loads = [subprocess.Popen(["wrk", "-t2", "-c16", f"-d{duration}s", "-s", script, f"http://127.0.0.1:{DOOR_PORT}"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for _ in range(2)]
        time.sleep(2)
        releases, switches, reverted = [], [], []
        active = "light"
        for round_number in range(rounds):
            # A release of dark by the CLI.
            folder = changed_theme("dark", 100 + round_number)
            before = get(DOOR_PORT, "/themes/dark/colors/primary")[1].get("etag")
            _, committed = publish(themed, "dark", folder)
            committed_wall = time.strftime("%H:%M:%S", time.gmtime()) + f".{int(time.time() * 1000) % 1000:03d}"
            seen = {}
            watch_door(seen, "release", committed, lambda: get(DOOR_PORT, "/themes/dark/colors/primary")[1].get("etag") not in (None, before))
            if "release" not in seen:
                status, headers, _ = get(DOOR_PORT, "/themes/dark/colors/primary")
                log(f"lag: release {round_number + 1} not seen: the door answers {status} {headers.get('etag')} (before: {before}), "
                    f"the replicas {[get(r.port, '/themes/dark/colors/primary')[1].get('etag') for r in cluster.replicas]}")
            releases.append(seen.get("release", 99))
            log(f"lag: release {round_number + 1}: the CLI returned at {committed_wall} UTC; seen through Varnish {seen.get('release', 99) * 1000:.0f} ms later")
            watched_until = time.monotonic() + 1
            while "release" in seen and time.monotonic() < watched_until:
                if get(DOOR_PORT, "/themes/dark/colors/primary")[1].get("etag") == before:
                    reverted.append(round_number + 1)
                    break
                time.sleep(0.01)
            # A switch through Varnish.
            active = "dark" if active == "light" else "light"
            expected = get(DOOR_PORT, f"/themes/{active}/colors/primary")[1].get("etag")
            switched_at = {}
            sent = [time.monotonic()]

            def follow(replica):
                if wait_until(lambda: json.loads(get(replica.port, "/active")[2] or b"{}").get("theme") == active, 5, 0.002):
                    switched_at[replica.number] = time.monotonic() - sent[0]
            followers = [threading.Thread(target=follow, args=(r,)) for r in cluster.replicas]
            for follower in followers:
                follower.start()
            status = put_active(DOOR_PORT, active)
            if status != 200:
                failures.append(f"PUT /active {active} through Varnish: {status}")
            answered = time.monotonic()
            watch_door(seen, "switch", answered, lambda: get(DOOR_PORT, "/themes/current/colors/primary")[1].get("etag") == expected)
            switches.append(seen.get("switch", 99))
            for follower in followers:
                follower.join()
            log(f"lag: switch {round_number + 1}: the PUT answered after {(answered - sent[0]) * 1000:.0f} ms; replicas switched after "
                + ", ".join(f"{n}: {d * 1000:.0f} ms" for n, d in sorted(switched_at.items())) + f"; through Varnish {seen.get('switch', 99) * 1000:.0f} ms after the answer")
            time.sleep(1)
        rates = []
        for load in loads:
            load.send_signal(signal.SIGINT)
            output, _ = load.communicate()
            rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
            rates.append(float(rate.group(1)) if rate else 0)
        log(f"lag: the load through Varnish: {' + '.join(f'{r:.0f}' for r in rates)} requests/s")

    def summary(values):
        ordered = sorted(values)
        return f"median {ordered[len(ordered) // 2] * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms ({', '.join(f'{v * 1000:.0f}' for v in values)})"
    log(f"lag under 2 x 16 connections through Varnish: CLI release seen through Varnish after {summary(releases)}")
    log(f"lag: PUT /active through Varnish, current seen through Varnish after {summary(switches)}")
    log(f"lag: the old answer came back through Varnish after a release was seen in rounds {reverted or 'none'}")
    if reverted:
        failures.append(f"the old answer came back after the release showed, in rounds {reverted}")
    if max(releases) > 0.3:
        failures.append(f"a release took {max(releases) * 1000:.0f} ms to show through Varnish (allowed 300)")
    if max(switches) > 0.3:
        failures.append(f"a switch took {max(switches) * 1000:.0f} ms to show through Varnish (allowed 300)")
    for failure in failures:
        log("FAILED: " + failure)
    if failures:
        sys.exit(1)
    log("lag: passed")


def metric(port, name):
    status, _, body = get(port, "/metrics")
    match = re.search(rf"^{name} (\d+)", body.decode(errors="replace"), re.M) if status == 200 else None
    return int(match.group(1)) if match else None


def streams_benchmark(themed, count, door, stalled):
    """The numbers of docs/DEPLOY.md: streams through the front door, switch fan-out, a rolling
    restart under them, stalled readers."""
    results = {"door": door, "streams": count}
    with Cluster(themed, door=door) as cluster:
        door_process = cluster.haproxy.process if cluster.haproxy else cluster.varnish.process
        idle_door = rss_mb(door_process.pid)
        idle_replicas = [rss_mb(r.process.pid) for r in cluster.replicas]
        client = StreamClient(count)
        connect = client.wait_open(120)
        opened = client.status().get("open", 0)
        results["connected"] = opened
        results["connect_seconds"] = connect
        log(f"{opened} of {count} streams open" + (f" after {connect:.1f} s" if connect else " (not all within 120 s)"))
        time.sleep(2)
        results["door_rss_mb"] = (idle_door, rss_mb(door_process.pid))
        results["door_threads"] = thread_count(door_process.pid)
        results["replica_rss_mb"] = [(before, rss_mb(r.process.pid)) for before, r in zip(idle_replicas, cluster.replicas)]
        results["replica_streams"] = [metric(r.port, "themed_subscribers") for r in cluster.replicas]
        log(f"door RSS {results['door_rss_mb'][0]:.0f} -> {results['door_rss_mb'][1]:.0f} MB, {results['door_threads']} threads; "
            f"replicas {', '.join(f'{a:.0f} -> {b:.0f} MB' for a, b in results['replica_rss_mb'])}; streams per replica {results['replica_streams']}")

        # Switches through the door, each delivered to every stream before the next.
        switches = []
        for theme in ["dark", "light", "dark"]:
            made = time.monotonic()
            status = put_active(DOOR_PORT, theme)
            switches.append((theme, made, status))
            time.sleep(4)
        # A deploy under every stream, with a release and a switch while replicas are away.
        # (issue 47: a change made while each replica is away, so that the streams moving to it
        # carry ids from before it started, and one after the last).
        rolled = []

        refused = []

        def switch(theme):
            rolled.append(("active-changed", theme, time.monotonic() - 0.5))
            status = put_active(DOOR_PORT, theme)
            if status != 200:
                refused.append(f"PUT /active {theme} through the door during the rolling restart: {status}")

        def away(number):
            if number == 2:
                _, committed = publish(themed, "light", changed_light_theme(7))
                rolled.append(("theme-reloaded", "light", committed - 0.5))
            else:
                switch("light" if number == 1 else "dark")
        rolling_started = time.monotonic()
        last_start = cluster.rolling_restart(away=away)
        switch("light")
        back = wait_until(lambda: client.status().get("open", 0) >= count, 60, 0.1)
        results["rolling_seconds"] = time.monotonic() - rolling_started
        results["open_after_last_restart_seconds"] = time.monotonic() - last_start if back else None
        time.sleep(3)
        status = client.status()
        received = client.stop()

        fanouts = []
        for theme, made, code in switches:
            times = delivery(received, count, "active-changed", theme, made)
            fanouts.append({"status": code, "delivered": len(times), "p50": percentile(times, 0.5), "p99": percentile(times, 0.99),
                            "max": times[-1] if times else float("nan")})
            log(f"PUT /active {theme} ({code}): to {len(times)} of {count} streams, p50 {percentile(times, 0.5) * 1000:.0f} ms, "
                f"p99 {percentile(times, 0.99) * 1000:.0f} ms, max {(times[-1] if times else float('nan')) * 1000:.0f} ms")
        results["fanout"] = fanouts
        missed = missed_changes(received, count, rolled)
        resyncs = sum(1 for events in received.values() for _, kind, _, _ in events if kind == "resync")
        # A resync makes ThemedClient and themed.js fetch their palette again (and an app what else
        # it shows): at least one request per resync, none for an event replayed by Last-Event-ID
        # (a replayed change costs what the change itself costs: a revalidation, usually a 304).
        refetches = resyncs
        results["rolling"] = {"all_back": back, "reconnects": status.get("reconnects", 0), "resyncs": resyncs,
                              "refetch_requests": refetches, "missed": {f"{k} {t}": len(n) for (k, t, _), n in missed.items()}}
        after = results["open_after_last_restart_seconds"]
        log(f"rolling restart: {results['rolling_seconds']:.1f} s until every stream was open again "
            f"({f'{after:.1f} s after the last replica started' if back else 'NOT all'}), {status.get('reconnects', 0)} reconnects, "
            f"{resyncs} resyncs ({refetches} refetch requests), missed: {results['rolling']['missed'] or 'nothing'}")
        failures = list(refused)
        if resyncs or missed:
            failures.append(f"{resyncs} resyncs, {len(missed)} changes missed")
        if not back or after > 10:
            failures.append("not every stream open again within 10 s of the last restart")

        if stalled:
            # Readers that never read, on one replica directly: their backlog is capped and they
            # are dropped past minimumSendRate (1,024 B/s over sendGraceSeconds, 10 s).
            replica = cluster.replicas[0]
            # The benchmark's streams are gone first (a replica notices a closed stream at its next heartbeat).
            wait_until(lambda: (metric(replica.port, "themed_subscribers") or 0) == 0, 30, 0.5)
            before = rss_mb(replica.process.pid)
            stall = StreamClient(stalled, port=replica.port, name="stalled", stall=True)
            stall.wait_open(60)
            time.sleep(1)
            attached = metric(replica.port, "themed_subscribers")
            with_stalled = rss_mb(replica.process.pid)
            for number in range(300):
                put_active(replica.port, "dark" if number % 2 == 0 else "light")
            events_sent = time.monotonic()
            after_events = rss_mb(replica.process.pid)
            peak_attached = metric(replica.port, "themed_subscribers")
            queued = send_queue_bytes(replica.port)
            dropped = wait_until(lambda: (metric(replica.port, "themed_subscribers") or 0) == 0, 40, 0.5)
            drop_seconds = time.monotonic() - events_sent
            time.sleep(1)
            results["stalled"] = {"streams": stalled, "attached": attached, "rss_before": before, "rss_with": with_stalled,
                                  "rss_after_300_events": after_events, "attached_after_events": peak_attached,
                                  "kernel_send_queue_bytes": queued, "dropped_within_seconds": drop_seconds if dropped else None,
                                  "attached_at_end": metric(replica.port, "themed_subscribers"), "rss_at_end": rss_mb(replica.process.pid)}
            stall.stop()
            log(f"stalled readers: {attached} attached; RSS {before:.0f} MB before, {with_stalled:.0f} MB with them, "
                f"{after_events:.0f} MB after 300 events ({peak_attached} still attached, {queued / 1e6:.1f} MB in kernel send queues), "
                f"all dropped {'%.1f s after the events' % drop_seconds if dropped else 'NOT within 40 s'}; "
                f"{results['stalled']['rss_at_end']:.0f} MB once dropped ({results['stalled']['attached_at_end']} attached)")
    with open(os.path.join(ROOT, "out", f"bench-streams-{door}.json"), "w") as file:
        json.dump(results, file, indent=1)
    log(f"results in out/bench-streams-{door}.json")
    for failure in failures:
        log("FAILED: " + failure)
    if failures:
        sys.exit(1)


def tenant_folder(scratch, tenant, number):
    """A brand: a child of light with an accent colour of its own."""
    folder = os.path.join(scratch, tenant)
    colorset = os.path.join(folder, "Theme.xcassets", "accent.colorset")
    os.makedirs(colorset)
    with open(os.path.join(folder, "Theme.xcassets", "Contents.json"), "w") as file:
        json.dump({"info": {"version": 1, "author": "xcode"}}, file)
    with open(os.path.join(colorset, "Contents.json"), "w") as file:
        json.dump({"info": {"version": 1, "author": "xcode"}, "colors": [{"idiom": "universal", "color": {
            "color-space": "srgb", "components": {"red": f"{number / 100:.2f}", "green": "0.5", "blue": "0.5", "alpha": "1"}}}]}, file)
    with open(os.path.join(folder, "theme.json"), "w") as file:
        json.dump({"parent": "light"}, file)
    return folder


def misdirected(port):
    """How many requests this replica answered 421."""
    status, _, body = get(port, "/metrics")
    return sum(float(line.rsplit(" ", 1)[1]) for line in body.decode().splitlines()
               if line.startswith("themed_requests_total{") and 'status="421"' in line) if status == 200 else None


def shards_test(themed):
    failures = []
    tenants = [f"tenant-{n:02d}" for n in range(40)]
    owners = {theme: shard_owner(theme, 2) for theme in tenants + ["light", "dark"]}
    with Cluster(themed, shards=2, publishing=("light", "dark")) as cluster:
        scratch = tempfile.mkdtemp()
        for number, tenant in enumerate(tenants):
            publish(themed, tenant, tenant_folder(scratch, tenant, number))

        # 1. Each replica lists every theme (its own and, from the store, the other group's), in
        # natural order, with the counts each theme's own page gives; it holds only its own and
        # light for its children.
        everything = set(owners)

        def natural(name):
            return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name)]

        for port, where in [(r.port, f"replica {r.number} ({r.shard})") for r in cluster.replicas] + [(DOOR_PORT, "the front door")]:
            def listed():
                status, _, body = get(port, "/themes")
                return json.loads(body)["themes"] if status == 200 else []

            if not wait_until(lambda: {theme["name"] for theme in listed()} == everything, 30, 0.1):
                failures.append(f"{where} lists {sorted(t['name'] for t in listed())}, not every theme")
            names = [theme["name"] for theme in listed()]
            if names != sorted(names, key=natural):
                failures.append(f"{where} does not list in natural order: {names}")
            for theme in listed():
                owner = cluster.replicas[(owners[theme["name"]] - 1) * 2]
                status, _, body = get(owner.port, f"/themes/{theme['name']}")
                detail = json.loads(body) if status == 200 else {}
                if (theme["colors"], theme["images"]) != (len(detail.get("colors", [])), len(detail.get("images", []))):
                    failures.append(f"{where} lists {theme['name']} with {theme['colors']} colours and {theme['images']} images; "
                                    f"its page has {len(detail.get('colors', []))} and {len(detail.get('images', []))}")
                    break
        for replica in cluster.replicas:
            group = int(replica.shard.split("/")[0])
            own = {theme for theme, owner in owners.items() if owner == group}
            folder = os.path.join(replica.folder, "themes")
            held = {name for name in os.listdir(folder) if not name.startswith(".")}
            if held != own | {"light"}:
                failures.append(f"replica {replica.number} ({replica.shard}) holds {sorted(held)}, not its own and light")
        log(f"shard 1 owns {sum(1 for o in owners.values() if o == 1)} themes, shard 2 {sum(1 for o in owners.values() if o == 2)}")

        # 2. Through the door every tenant answers, as its owner does, and no request needed a 421.
        before = sum(misdirected(r.port) or 0 for r in cluster.replicas)
        for tenant in tenants:
            owner = cluster.replicas[(owners[tenant] - 1) * 2]
            status, headers, _ = get(DOOR_PORT, f"/themes/{tenant}/colors/accent")
            _, direct, _ = get(owner.port, f"/themes/{tenant}/colors/accent")
            if status != 200 or headers.get("etag") != direct.get("etag"):
                failures.append(f"{tenant} through the door: {status} {headers.get('etag')}, its owner says {direct.get('etag')}")
            if get(DOOR_PORT, f"/themes/{tenant}/colors/primary")[0] != 200:
                failures.append(f"{tenant}: primary (from light) not served through the door")
        routed = sum(misdirected(r.port) or 0 for r in cluster.replicas) - before
        if routed != 0:
            failures.append(f"the VCL sent {routed:.0f} requests to a group that does not own their theme")
        # A switch names its theme in the body, and `current` none in its path: both go to group 1
        # first and on to the owner after a 421.
        elsewhere = next(t for t in tenants if owners[t] == 2)
        status = put_active(DOOR_PORT, elsewhere)
        if status != 200:
            failures.append(f"PUT /active {elsewhere} (shard 2) through the door: {status}")
        if not wait_until(lambda: get(DOOR_PORT, "/themes/current/colors/accent?x=1")[1].get("etag")
                          == get(cluster.replicas[2].port, f"/themes/{elsewhere}/colors/accent")[1].get("etag"), 5, 0.1):
            failures.append(f"/themes/current through the door did not answer as {elsewhere}")
        # `current`'s assignment through the door (group 1 answers for every theme) gives a pinned
        # base of shard 2's theme, which the VCL sends to its owner: no 421 on the way.
        before = sum(misdirected(r.port) or 0 for r in cluster.replicas)
        status, _, body = get(DOOR_PORT, "/assign/current?client=shards")
        base = json.loads(body).get("base", "") if status == 200 else ""
        pinned = get(DOOR_PORT, base + "/colors/accent")
        owner_says = get(cluster.replicas[2].port, f"/themes/{elsewhere}/colors/accent")[1].get("etag")
        if not base.startswith(f"/themes/{elsewhere}@") or pinned[0] != 200 or pinned[1].get("etag") != owner_says:
            failures.append(f"/assign/current through the door: {status} {base}; its pinned base answered {pinned[0]}")
        if sum(misdirected(r.port) or 0 for r in cluster.replicas) - before != 0:
            failures.append("a generation-pinned URL went to a group that does not own its theme")

        # 3. Straight to the wrong group: 421 naming the owner.
        for tenant in tenants[:6]:
            wrong = cluster.replicas[(2 - owners[tenant]) * 2]
            status, headers, _ = get(wrong.port, f"/themes/{tenant}/colors/accent")
            if status != 421 or headers.get("themed-shard") != f"{owners[tenant]}/2":
                failures.append(f"{tenant} at the other group: {status} {headers.get('themed-shard')}")

        # 4. A new release of a tenant of each group is seen through the door (the group purges Varnish).
        for group in (1, 2):
            tenant = next(t for t in tenants if owners[t] == group)
            old = get(DOOR_PORT, f"/themes/{tenant}/colors/accent")[1].get("etag")
            publish(themed, tenant, tenant_folder(tempfile.mkdtemp(), tenant, 99))
            if not wait_until(lambda: get(DOOR_PORT, f"/themes/{tenant}/colors/accent")[1].get("etag") not in (None, old), 10, 0.05):
                failures.append(f"the new release of {tenant} (shard {group}) was not served through the door")

        # 5. A group losing a replica keeps serving through the other.
        cluster.replicas[3].stop(signal.SIGKILL)
        lost = [t for t in tenants if owners[t] == 2 and get(DOOR_PORT, f"/themes/{t}/colors/accent?after=kill")[0] != 200]
        if lost:
            failures.append(f"with replica 4 down, {len(lost)} of shard 2's tenants failed through the door")
    if failures:
        for failure in failures:
            log(f"FAILED: {failure}")
        sys.exit(1)
    log(f"shards: passed ({len(tenants)} tenants on two groups, every one served by its owner through the door, 0 misrouted)")


def kotlin_test(themed, classpath):
    """The Kotlin client against two replicas on a throwaway PostgreSQL (no door): `light`
    published again into a rollout to 10%, `current` made light, then the JUnit class
    themed.client.ThemedClientReplicaTest with the replicas' ports and the rollout's generation."""
    shutil.rmtree(VAR, ignore_errors=True)
    os.makedirs(VAR)
    postgres = Postgres()
    replicas = [Replica(themed, n + 1, port, VARNISH_PORT) for n, port in enumerate(REPLICA_PORTS[:2])]
    try:
        postgres.init()
        postgres.start()
        for theme in ("light", "dark"):
            publish(themed, theme, os.path.join(ROOT, "themes", theme))
        _, _, generation = publish(themed, "light", os.path.join(ROOT, "themes", "light"), rollout=10)
        for replica in replicas:
            replica.start()
        if put_active(replicas[0].port, "light") != 200:
            sys.exit("cluster: PUT /active light was refused")
        # Every replica follows the switch and serves both generations of light before the clients come.
        wait_until(lambda: all(get(r.port, "/active")[2].find(b'"light"') >= 0 for r in replicas), 10, 0.05)
        run = subprocess.run(["java", "-Dthemed.replicas=" + ",".join(str(r.port) for r in replicas), f"-Dthemed.rollout.generation={generation}",
                              "-cp", classpath, "org.junit.runner.JUnitCore", "themed.client.ThemedClientReplicaTest"])
        if run.returncode != 0:
            sys.exit("cluster: the Kotlin client's replica test failed")
        log("kotlin: passed")
    finally:
        for replica in replicas:
            replica.stop()
        postgres.discard()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["up", "test", "streams", "shards", "lag", "kotlin", "shutdown"])
    parser.add_argument("--classpath", help="the Kotlin client and its replica test (the kotlin command)")
    parser.add_argument("--rounds", type=int, default=5, help="changes timed (the lag command)")
    parser.add_argument("--shards", type=int, choices=[1, 2], default=1, help="shard groups (up)")
    parser.add_argument("--themed", default=os.path.join(ROOT, ".build/release/themed"))
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--door-ms", type=int, default=300, help="the most a change may take to show through the door (test)")
    parser.add_argument("--count", type=int, default=9000, help="streams (the streams command)")
    parser.add_argument("--stalled", type=int, default=1000, help="stalled readers after the streams (0: none)")
    parser.add_argument("--door", choices=["haproxy", "varnish"], default="haproxy", help="the front door (streams)")
    arguments = parser.parse_args()
    tools = {"up": ["varnishd", "haproxy"], "test": ["varnishd", "haproxy", "wrk", "cc"], "streams": ["varnishd", "haproxy", "cc"],
             "shards": ["varnishd"], "lag": ["varnishd", "wrk"], "kotlin": ["java"], "shutdown": ["varnishd", "haproxy"]}
    for tool in tools[arguments.command]:
        if not shutil.which(tool):
            sys.exit(f"cluster: {tool} is not installed (make cluster-deps installs it)")
    if arguments.command == "test":
        test(arguments.themed, arguments.seconds, arguments.door_ms)
        return
    if arguments.command == "shards":
        shards_test(arguments.themed)
        return
    if arguments.command == "shutdown":
        shutdown_test(arguments.themed)
        return
    if arguments.command == "kotlin":
        kotlin_test(arguments.themed, arguments.classpath)
        return
    if arguments.command == "lag":
        lag_test(arguments.themed, arguments.rounds)
        return
    if arguments.command == "streams":
        os.makedirs(os.path.join(ROOT, "out"), exist_ok=True)
        streams_benchmark(arguments.themed, arguments.count, arguments.door, arguments.stalled)
        return
    with Cluster(arguments.themed, shards=arguments.shards) as cluster:
        log(f"PostgreSQL  {CLUSTER_URL}")
        for replica in cluster.replicas:
            log(f"replica     http://127.0.0.1:{replica.port}/" + (f"   (shard {replica.shard})" if replica.shard else ""))
        if cluster.haproxy:
            log(f"Varnish     http://127.0.0.1:{VARNISH_PORT}/   (the cache)")
            log(f"front door  http://127.0.0.1:{DOOR_PORT}/   (HAProxy: the gallery; curl http://127.0.0.1:{DOOR_PORT}/themes)")
        else:
            log(f"front door  http://127.0.0.1:{DOOR_PORT}/   (Varnish, routing each theme to its shard's group)")
        log(f"publish:    {arguments.themed} publish --cluster '{CLUSTER_URL}' THEME PATH")
        log(f"token:      {OPERATOR_TOKEN}   (every replica's activeToken: changes need it, loopback too)")
        log(f"switch:     curl -X PUT -H 'Authorization: Bearer {OPERATOR_TOKEN}' -d '{{\"theme\": \"dark\"}}' http://127.0.0.1:{DOOR_PORT}/active")
        log("Ctrl-C or SIGTERM stops everything")
        # SIGTERM (a service manager, `kill`) stops it as Ctrl-C does: the with block tears down.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
