"""`cluster.py lag` (issue 53.4): a CLI release and a PUT /active timed until they show through
Varnish (alone in front), under two wrk clients of 16 connections; fails above 300 ms.
"""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from cluster_harness import Cluster, DOOR_PORT, VAR, changed_theme, get, log, publish, put_active, wait_until, watch_door


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
