"""`cluster.py shutdown`: `up` as a newcomer drives it: the banner's token and PUT /active line
work, a PUT without a token is a 401 saying where tokens come from, one replica restarted by
hand, then SIGTERM: everything is gone and every port free within 10 s.
"""
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from cluster_harness import CLUSTER_URL, DOOR_PORT, OPERATOR_TOKEN, PG_PORT, REPLICA_PORTS, VAR, VARNISH_PORT, get, log, processes_in, put_active, wait_until


def shutdown_test(themed):
    """`make cluster` as a newcomer drives it: up, one replica restarted by hand (as docs/DEPLOY.md
    shows), then SIGTERM: PostgreSQL, Varnish, HAProxy and every replica, the hand-started one
    too, are gone within 10 s and every port is free."""
    up = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "cluster.py"), "up", "--themed", themed], stdout=subprocess.PIPE, text=True,
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
