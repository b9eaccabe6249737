"""`themed serve` on a throwaway configuration, for the check and benchmark scripts: a free port
(or the one given), the themes folder given, the index and blobs in the work folder, any other
settings, started and waited for (until /healthz answers 200: the first index is served),
stopped with SIGTERM on exit (killed if it does not stop within 10 s).

    with LocalThemed(themed, work, themes, settings={"derivedImageBytes": 1 << 20}) as server:
        requests.get(server.base + "/themes")
"""
import json
import os
import socket
import subprocess
import sys
import time

import requests


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LocalThemed:
    def __init__(self, themed, work, themes, settings=None, port=None):
        self.themed, self.work, self.themes, self.settings = themed, work, themes, settings or {}
        self.port = port or free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.process = None

    def __enter__(self):
        config = os.path.join(self.work, "themed.json")
        with open(config, "w") as file:
            json.dump(dict({"watch": False, "port": self.port, "themes": self.themes, "db": os.path.join(self.work, "index.sqlite"),
                            "blobs": os.path.join(self.work, "blobs")}, **self.settings), file)
        log_path = os.path.join(self.work, "themed.log")
        with open(log_path, "a") as log:
            self.process = subprocess.Popen([self.themed, "serve", "--config", config], stdout=log, stderr=log)
        for _ in range(400):
            try:
                if requests.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except requests.ConnectionError:
                pass
            time.sleep(0.05)
        self.__exit__(None, None, None)
        sys.exit("themed did not start: " + open(log_path).read())

    def __exit__(self, *exception):
        if self.process:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
