"""The throwaway themed cluster the cluster scripts share: PostgreSQL (initdb under var/cluster),
replicas following it, Varnish (config/varnish/themed.vcl) and HAProxy (config/haproxy/themed.cfg)
on loopback, and the helpers the suites and the other scripts use (scripts/cluster.py runs the
suites: each is a file of its own, cluster_*.py).
"""
import hashlib
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
from sample_themes import SAMPLE_BUILDS

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


def watch_door(seen, kind, since, condition):
    """Polls the front door until `condition` holds; notes the seconds since `since` in `seen`."""
    if wait_until(condition, 5, 0.002):
        seen[kind] = time.monotonic() - since


def changed_light_theme(generation):
    """The sample light theme with a new primary colour: a release with new content."""
    return changed_theme("light", generation)


def changed_theme(theme, generation):
    """A sample theme with a new primary colour: a release with new content."""
    folder = tempfile.mkdtemp() + "/" + theme
    shutil.copytree(os.path.join(ROOT, "themes", theme), folder, ignore=SAMPLE_BUILDS)
    path = f"{folder}/Theme.xcassets/primary.colorset/Contents.json"
    with open(path) as source:
        text = source.read()
    red = f"0.{generation:03d}"
    text = re.sub(r'"red"\s*:\s*"[^"]*"', f'"red" : "{red}"', text, count=1)
    with open(path, "w") as target:
        target.write(text)
    return folder
