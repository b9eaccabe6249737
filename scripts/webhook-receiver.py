#!/usr/bin/env python3
"""A webhook subscriber for Tests/DaemonTests/WebhookTests: verifies each message with PyPI's
standardwebhooks (the signature over id.timestamp.body, the timestamp's freshness) and appends
one JSON line to OUT: {"id", "type", "verified", "data"}. Answers 204 to a verified message, 400
to one that is not; while a file OUT.down exists, 503 to every message, keeping only its id in
OUT.refused (a subscriber that is down but keeps its port, which another process could take
meanwhile; the test sees that a try was made).

Usage: webhook-receiver.py PORT SECRET OUT
"""
import http.server
import json
import os
import sys

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

PORT, SECRET, OUT = int(sys.argv[1]), sys.argv[2], sys.argv[3]
HOOK = Webhook(SECRET)


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        if os.path.exists(OUT + ".down"):
            with open(OUT + ".refused", "a") as refused:
                refused.write(f"{self.headers.get('webhook-id')}\n")
            self.send_response(503)
            self.send_header("content-length", "0")
            self.end_headers()
            return
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            payload = HOOK.verify(body, headers)
            record = {"id": headers.get("webhook-id"), "type": payload.get("type"), "verified": True, "data": payload.get("data")}
            status = 204
        except WebhookVerificationError as error:
            record = {"id": headers.get("webhook-id"), "verified": False, "error": str(error)}
            status = 400
        with open(OUT, "a") as out:
            out.write(json.dumps(record) + "\n")
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *arguments):
        pass


http.server.HTTPServer(("127.0.0.1", PORT), Receiver).serve_forever()
