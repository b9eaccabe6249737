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
import os
import shutil
import signal
import sys
from cluster_harness import CLUSTER_URL, Cluster, DOOR_PORT, OPERATOR_TOKEN, ROOT, VARNISH_PORT, log
from cluster_chaos import test
from cluster_lag import lag_test
from cluster_streams import streams_benchmark
from cluster_shards import shards_test
from cluster_shutdown import shutdown_test
from cluster_kotlin import kotlin_test


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["up", "test", "streams", "shards", "lag", "kotlin", "shutdown"])
    parser.add_argument("--classpath", help="the Kotlin client and its replica test (the kotlin command)")
    parser.add_argument("--rounds", type=int, default=5, help="changes timed (the lag command)")
    parser.add_argument("--autogroup", choices=["on", "off"],
                        help="lag: the kernel's sched_autogroup_enabled for the run (root; put back after); default: as it is")
    parser.add_argument("--operator-shell", action="store_true",
                        help="lag: publish from a shell in a session of its own, as an operator's login shell, not from the load's session")
    parser.add_argument("--service-groups", nargs="?", const="", metavar="NAME=SHARES,...",
                        help="lag: each part in a CPU cgroup of its own, as systemd's services (root, cgroup v1); "
                             "optionally their cpu.shares, 1024 by default (store, cache, replica1-3, load, operator)")
    parser.add_argument("--slices", action="store_true",
                        help="lag, with --service-groups: the groups nested as systemd's, the services under system.slice and the "
                             "operator under user.slice at equal weights, the load in a slice of its own")
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
        shares = None if arguments.service_groups is None else \
            {name: int(value) for name, value in (pair.split("=") for pair in arguments.service_groups.split(",") if pair)}
        if arguments.slices and shares is None:
            sys.exit("cluster: --slices nests the groups of --service-groups: give both")
        lag_test(arguments.themed, arguments.rounds, operator_shell=arguments.operator_shell, autogroup=arguments.autogroup, service_groups=shares,
                 slices=arguments.slices)
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
