"""`themed serve` on a throwaway configuration, for the check scripts: a free port, the themes
folder given, the index and blobs in the work folder, started and waited for, stopped on exit.

    with LocalThemed(themed, work, themes) as server:
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
    def __init__(self, themed, work, themes):
        self.themed, self.work, self.themes = themed, work, themes
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.process = None

    def __enter__(self):
        config = os.path.join(self.work, "themed.json")
        with open(config, "w") as file:
            json.dump({"watch": False, "port": self.port, "themes": self.themes, "db": os.path.join(self.work, "index.sqlite"),
                       "blobs": os.path.join(self.work, "blobs")}, file)
        log_path = os.path.join(self.work, "themed.log")
        with open(log_path, "w") as log:
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
            self.process.wait(timeout=10)
            self.process = None
