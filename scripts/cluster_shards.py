"""`cluster.py shards`: 40 tenants (children of a base) on two shard groups; each replica holds and
lists only its shard's themes plus ancestors, every tenant is served through Varnish without a
421, a wrong group answers 421 naming the owner, a group survives losing a replica.
"""
import json
import os
import re
import signal
import sys
import tempfile
from cluster_harness import Cluster, DOOR_PORT, get, log, publish, put_active, shard_owner, wait_until


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
