"""`cluster.py streams`: the stream benchmark: N streams through the front door, active switches
timed to all of them, every replica rolled, then stalled readers on one replica.
"""
import json
import os
import re
import subprocess
import sys
import time
from cluster_harness import Cluster, DOOR_PORT, ROOT, StreamClient, changed_light_theme, delivery, get, log, missed_changes, percentile, publish, put_active, wait_until


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


def metric(port, name):
    status, _, body = get(port, "/metrics")
    match = re.search(rf"^{name} (\d+)", body.decode(errors="replace"), re.M) if status == 200 else None
    return int(match.group(1)) if match else None
