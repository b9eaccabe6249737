"""`cluster.py kotlin`: the Kotlin client's replica test against two replicas on a throwaway
PostgreSQL.
"""
import os
import shutil
import subprocess
import sys
from cluster_harness import Postgres, REPLICA_PORTS, ROOT, Replica, VAR, VARNISH_PORT, get, log, publish, put_active, wait_until


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
