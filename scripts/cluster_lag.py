"""`cluster.py lag` (issues 53.4, 78.1): a CLI release and a PUT /active through Varnish (alone in
front) under two wrk clients of 16 connections: each returns once every replica serves it, so the
first answer through Varnish after it returns is new; fails when one is not, or a change takes
more than 1 s from its start to its return.
"""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from cluster_harness import CLUSTER_URL, Cluster, DOOR_PORT, VAR, alive, changed_theme, get, log, put_active, wait_until, watch_door


def replica_syncs(cluster, logged_before):
    """Each replica's "change served" log lines since the load began: how long a change took there
    from the store's notification to the report that it serves it, split into the store's answers
    and its own work."""
    served = []
    for replica in cluster.replicas:
        with open(os.path.join(replica.folder, "themed.log"), "rb") as said:
            said.seek(logged_before[replica.number])
            for line in said.read().decode(errors="replace").splitlines():
                if "change served" in line:
                    fields = dict(re.findall(r"(\w+)=(\d+)", line))
                    if all(key in fields for key in ("ms", "store_ms", "store_queries", "own_ms")):
                        served.append({key: int(fields[key]) for key in ("ms", "store_ms", "store_queries", "own_ms")})
    return served


class CPUTime:
    """What a process's threads spent on a CPU and waiting in the run queue for one (seconds),
    from /proc/PID/task/*/schedstat, read every 5 ms on a thread of its own until it exits: a
    command slow for want of a CPU waits in the queue; one slow for anything else sleeps."""

    def __init__(self, find_pid):
        self.seen = {}
        self.follower = threading.Thread(target=self.follow, args=(find_pid,))
        self.follower.start()

    def follow(self, find_pid):
        deadline = time.monotonic() + 10
        pid = find_pid()
        while pid is None and time.monotonic() < deadline:
            time.sleep(0.001)
            pid = find_pid()
        while pid is not None and alive(pid):
            try:
                for thread in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{thread}/schedstat") as stat:
                        ran, queued = stat.read().split()[:2]
                    self.seen[thread] = (int(ran), int(queued))
            except (OSError, ValueError):
                pass
            time.sleep(0.005)

    def result(self):
        """(ran, queued), or None when the process ended before it was found."""
        self.follower.join()
        if not self.seen:
            return None
        return sum(ran for ran, _ in self.seen.values()) / 1e9, sum(queued for _, queued in self.seen.values()) / 1e9


def publish_command(themed, theme, path):
    return [themed, "publish", "--cluster", CLUSTER_URL, theme, path]


def publish_measured(themed, theme, path):
    """(started, returned, waited, cpu) of `themed publish`: waited is the part of it spent waiting
    for the replicas to serve the release, as the command prints it ("after N ms"); the rest is
    the command's own (its start, the check of the theme, the store's connection and write); cpu
    is CPUTime's."""
    started = time.monotonic()
    command = subprocess.Popen(publish_command(themed, theme, path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cpu = CPUTime(lambda: command.pid)
    output, errors = command.communicate()
    returned = time.monotonic()
    if command.returncode != 0:
        raise RuntimeError(f"publish {theme}: {errors.strip()}")
    waited = re.search(r"after (\d+) ms", output)
    return started, returned, int(waited.group(1)) / 1000 if waited else 0, cpu.result()


class OperatorShell:
    """A shell in a session of its own, started once, that runs the operator's commands: as an
    operator's login shell is, apart from the session that runs the load generators, Varnish and
    the replicas here (with autogroup scheduling, a session is a group that shares the CPU)."""

    def __init__(self):
        self.shell = subprocess.Popen(["bash"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True)

    def command_pid(self):
        """The command the shell runs, once it runs."""
        for pid in descendants(self.shell.pid):
            try:
                with open(f"/proc/{pid}/comm") as name:
                    if pid != self.shell.pid and name.read().strip() == "themed":
                        return pid
            except OSError:
                pass
        return None

    def publish_measured(self, themed, theme, path):
        started = time.monotonic()
        self.shell.stdin.write(" ".join(f"'{word}'" for word in publish_command(themed, theme, path)) + " 2>&1; echo \"DONE $?\"\n")
        self.shell.stdin.flush()
        cpu = CPUTime(self.command_pid)
        output = []
        for line in self.shell.stdout:
            if line.startswith("DONE "):
                break
            output.append(line)
        returned = time.monotonic()
        if line.strip() != "DONE 0":
            raise RuntimeError(f"publish {theme}: {''.join(output).strip()}")
        waited = re.search(r"after (\d+) ms", "".join(output))
        return started, returned, int(waited.group(1)) / 1000 if waited else 0, cpu.result()

    def close(self):
        self.shell.stdin.close()
        self.shell.wait()


AUTOGROUP = "/proc/sys/kernel/sched_autogroup_enabled"


def autogroup_setting():
    """The kernel's grouping of tasks by session ("1", "0"), or None where it has none."""
    try:
        with open(AUTOGROUP) as setting:
            return setting.read().strip()
    except OSError:
        return None


def set_autogroup(value):
    with open(AUTOGROUP, "w") as setting:
        setting.write(value)


CPU_CGROUPS = "/sys/fs/cgroup/cpu"


def descendants(pid):
    """`pid` and every process below it, by /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                children.setdefault(int(stat.read().rsplit(")", 1)[1].split()[1]), []).append(int(entry))
        except (OSError, ValueError, IndexError):
            pass
    found, waiting = [], [pid]
    while waiting:
        found.append(waiting.pop())
        waiting.extend(children.get(found[-1], []))
    return found


class ServiceGroups:
    """Each part of the cluster in a CPU cgroup of its own, as systemd runs each service in a unit
    of its own: the store, Varnish, each replica, the load and the operator's commands. Groups
    share the CPU by their weights (`shares`: name to cpu.shares, 1024 by default, systemd's
    CPUWeight=100), not by session: the kernel's autogroup leaves tasks in a cgroup alone. Needs
    root and cgroup v1's cpu controller (CPU_CGROUPS); the processes go back to the root group
    at close.

    `slices`: the groups nested as systemd nests them, the services under system.slice and the
    operator's commands under user.slice (a login session's scope), the two slices at equal
    weights; the load, a stand-in for clients on other hosts, in a slice of its own. Without it
    every group is a sibling of the others, as the flat layout of autogroup's sessions."""

    def __init__(self, shares, slices=False):
        if not os.path.exists(os.path.join(CPU_CGROUPS, "cgroup.procs")):
            sys.exit(f"lag: --service-groups needs cgroup v1's cpu controller at {CPU_CGROUPS}")
        self.root = os.path.join(CPU_CGROUPS, f"themed-lag-{os.getpid()}")
        self.shares = shares
        self.slices = slices
        os.mkdir(self.root)

    def path(self, name):
        """The group's folder under the root: `name`, under its slice with `slices`."""
        if not self.slices:
            return name
        return {"load": "load.slice", "operator": "user.slice/operator"}.get(name, f"system.slice/{name}")

    def place(self, name, pid, alone=False):
        """`pid` and its descendants (`alone`: not them) into the group `name`; processes they
        start later follow."""
        group = os.path.join(self.root, self.path(name))
        if not os.path.isdir(group):
            os.makedirs(group)
            with open(os.path.join(group, "cpu.shares"), "w") as shares:
                shares.write(str(self.shares.get(name, 1024)))
        for member in [pid] if alone else descendants(pid):
            try:
                with open(os.path.join(group, "cgroup.procs"), "w") as procs:
                    procs.write(str(member))
            except ProcessLookupError:
                pass

    def place_cluster(self, cluster):
        with open(os.path.join(cluster.postgres.folder, "data/postmaster.pid")) as pid_file:
            self.place("store", int(pid_file.readline()))
        self.place("cache", cluster.varnish.process.pid)
        for replica in cluster.replicas:
            self.place(f"replica{replica.number}", replica.process.pid)

    def close(self):
        # Deepest first: a group is removed once its members and its children are gone.
        for folder, _, _ in sorted(os.walk(self.root), key=lambda entry: -entry[0].count(os.sep)):
            with open(os.path.join(folder, "cgroup.procs")) as procs:
                members = procs.read().split()
            for member in members:
                try:
                    with open(os.path.join(CPU_CGROUPS, "cgroup.procs"), "w") as root_procs:
                        root_procs.write(member)
                except ProcessLookupError:
                    pass
            os.rmdir(folder)


def lag_test(themed, rounds, operator_shell=False, autogroup=None, service_groups=None, slices=False):
    """`autogroup` "on" or "off": the kernel's setting for the run (root only), put back after;
    None: as it is. Either way the run says which it was. `service_groups`: None, or the shares of
    ServiceGroups' groups to run in them (an empty dict: all alike); `slices`: nested as systemd's."""
    before = autogroup_setting()
    if autogroup and before is not None:
        set_autogroup("1" if autogroup == "on" else "0")
    groups = ServiceGroups(service_groups, slices) if service_groups is not None else None
    try:
        lag_rounds(themed, rounds, operator_shell, groups)
    finally:
        if groups:
            groups.close()
        if autogroup and before is not None:
            set_autogroup(before)


def lag_rounds(themed, rounds, operator_shell, groups):
    """Issues 53.4 and 78.1: a change returns once every replica serves it and sent its purges, so
    it is live through Varnish as it returns, while two wrk clients (16 connections each)
    saturate it. Varnish alone in front of three replicas that purge it (purgeURLs); the change
    made as operators make it: `themed publish --cluster` (the CLI, straight to the store, waiting
    for the replicas) and PUT /active through Varnish. Each is timed from its start to its return,
    and the first answer through Varnish after the return must be new; each release is watched for
    a second after it: the old answer must not come back (a fetch begun before a purge and kept
    after it). Fails if a change takes more than 1 s to return, if the first answer after it is
    old, or if an old answer comes back."""
    failures = []
    operator = OperatorShell() if operator_shell else None
    with Cluster(themed, door="varnish") as cluster:
        urls = ["/themes/dark/colors/primary", "/themes/current/colors/primary", "/themes/dark/images/logo?scale=2", "/themes/dark/colors"]
        script = os.path.join(VAR, "lag.lua")
        with open(script, "w") as lua:
            lua.write("paths = {" + ", ".join(f'"{u}"' for u in urls) + "}\n"
                      "counter = 0\nrequest = function()\n  counter = counter + 1\n"
                      "  return wrk.format('GET', paths[(counter % #paths) + 1])\nend\n")
        duration = rounds * 6 + 10
        logged_before = {r.number: os.path.getsize(os.path.join(r.folder, "themed.log")) for r in cluster.replicas}
        loads = [subprocess.Popen(["wrk", "-t2", "-c16", f"-d{duration}s", "-s", script, f"http://127.0.0.1:{DOOR_PORT}"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for _ in range(2)]
        if groups:
            groups.place_cluster(cluster)
            for load in loads:
                groups.place("load", load.pid)
            # The harness itself runs the CLI when there is no operator's shell; the cluster it
            # started is placed above.
            groups.place("operator", operator.shell.pid if operator else os.getpid(), alone=not operator)
        time.sleep(2)
        measured_publish = operator.publish_measured if operator else publish_measured
        releases, waits, cpus, switches, reverted, stale = [], [], [], [], [], []
        active = "light"
        for round_number in range(rounds):
            # A release of dark by the CLI.
            folder = changed_theme("dark", 100 + round_number)
            before = get(DOOR_PORT, "/themes/dark/colors/primary")[1].get("etag")
            started, committed, waited, cpu = measured_publish(themed, "dark", folder)
            committed_wall = time.strftime("%H:%M:%S", time.gmtime()) + f".{int(time.time() * 1000) % 1000:03d}"
            if get(DOOR_PORT, "/themes/dark/colors/primary")[1].get("etag") in (None, before):
                stale.append(f"release {round_number + 1}")
            releases.append(committed - started)
            waits.append(waited)
            if cpu:
                cpus.append(cpu)
            seen = {}
            watch_door(seen, "release", committed, lambda: get(DOOR_PORT, "/themes/dark/colors/primary")[1].get("etag") not in (None, before))
            if "release" not in seen:
                status, headers, _ = get(DOOR_PORT, "/themes/dark/colors/primary")
                log(f"lag: release {round_number + 1} not seen: the door answers {status} {headers.get('etag')} (before: {before}), "
                    f"the replicas {[get(r.port, '/themes/dark/colors/primary')[1].get('etag') for r in cluster.replicas]}")
            log(f"lag: release {round_number + 1}: the CLI took {(committed - started) * 1000:.0f} ms "
                f"(its own {(committed - started - waited) * 1000:.0f} ms, waiting for the replicas {waited * 1000:.0f} ms; "
                + (f"on a CPU {cpu[0] * 1000:.0f} ms, queued for one {cpu[1] * 1000:.0f} ms" if cpu else "its CPU time not read") + f"), returning at {committed_wall} UTC; "
                f"seen through Varnish {seen.get('release', 99) * 1000:.0f} ms after")
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
            # Longer than the server's own wait for the replicas (10 s): a client that gave up
            # earlier would check the door before the change returned (0: no answer).
            status = put_active(DOOR_PORT, active, timeout=15)
            answered = time.monotonic()
            if status != 200:
                failures.append(f"PUT /active {active} through Varnish: {status} after {(answered - sent[0]) * 1000:.0f} ms")
            elif get(DOOR_PORT, "/themes/current/colors/primary")[1].get("etag") != expected:
                stale.append(f"switch {round_number + 1}")
            watch_door(seen, "switch", answered, lambda: get(DOOR_PORT, "/themes/current/colors/primary")[1].get("etag") == expected)
            switches.append(answered - sent[0])
            for follower in followers:
                follower.join()
            log(f"lag: switch {round_number + 1}: the PUT answered after {(answered - sent[0]) * 1000:.0f} ms; replicas switched after "
                + ", ".join(f"{n}: {d * 1000:.0f} ms" for n, d in sorted(switched_at.items())) + f"; through Varnish {seen.get('switch', 99) * 1000:.0f} ms after the answer")
            time.sleep(1)
        rates, refused = [], []
        for load in loads:
            load.send_signal(signal.SIGINT)
            output, _ = load.communicate()
            rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
            rates.append(float(rate.group(1)) if rate else 0)
            # A replica closes its kept connections at each change: the cache must not turn that
            # into errors for its clients.
            refused += re.findall(r"Non-2xx or 3xx responses: \d+|Socket errors: [^\n]+", output)
        log(f"lag: the load through Varnish: {' + '.join(f'{r:.0f}' for r in rates)} requests/s; "
            f"answers other than 2xx or 3xx, and socket errors: {'; '.join(refused) or 'none'}")
        if any(line.startswith("Non-2xx") for line in refused):
            failures.append(f"the load was answered with errors: {'; '.join(refused)}")
        served = replica_syncs(cluster, logged_before)

    def summary(values):
        ordered = sorted(values)
        return f"median {ordered[len(ordered) // 2] * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms ({', '.join(f'{v * 1000:.0f}' for v in values)})"
    grouping = {"1": "on (tasks grouped by session: an idle session's task waits for the CPU)", "0": "off"}.get(autogroup_setting(), "not there")
    log(f"lag: the kernel's autogroup was {grouping}")
    if groups:
        weights = ", ".join(f"{name} {value}" for name, value in sorted(groups.shares.items()))
        log("lag: the store, Varnish, each replica, the load and the operator each in a CPU cgroup of their own, with cpu.shares "
            + (f"{weights} and 1024 for the others" if weights else "1024 each")
            + ("; the services under system.slice, the operator under user.slice, the load in a slice of its own" if groups.slices else ""))
    log(f"lag under 2 x 16 connections through Varnish: themed publish --cluster returned after {summary(releases)}")
    log(f"lag: of which the command's own part (start, check, store write): {summary([r - w for r, w in zip(releases, waits)])}")
    log(f"lag: of which waiting for the replicas to serve it: {summary(waits)}")
    if cpus:
        log(f"lag: the command's threads on a CPU: {summary([ran for ran, _ in cpus])}; waiting in the run queue for one: {summary([queued for _, queued in cpus])}")
    log(f"lag: PUT /active through Varnish answered after {summary(switches)}")
    if served:
        def spread(key):
            ordered = sorted(line[key] for line in served)
            return f"median {ordered[len(ordered) // 2]}, max {ordered[-1]}"
        log(f"lag: at the replicas, {len(served)} changes from the notification to the report of serving them: {spread('ms')} ms; "
            f"the store's answers {spread('store_ms')} ms ({spread('store_queries')} questions), their own work {spread('own_ms')} ms")
    log(f"lag: the first answer through Varnish after a change returned was old in {stale or 'none'}")
    log(f"lag: the old answer came back through Varnish after a release was seen in rounds {reverted or 'none'}")
    if reverted:
        failures.append(f"the old answer came back after the release showed, in rounds {reverted}")
    if stale:
        failures.append(f"the change was not live through Varnish as it returned: {stale}")
    if max(releases) > 1:
        failures.append(f"a release took {max(releases) * 1000:.0f} ms to return (allowed 1,000)")
    if max(switches) > 1:
        failures.append(f"a switch took {max(switches) * 1000:.0f} ms to return (allowed 1,000)")
    for failure in failures:
        log("FAILED: " + failure)
    if failures:
        sys.exit(1)
    log("lag: passed")
