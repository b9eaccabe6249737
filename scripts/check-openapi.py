#!/usr/bin/env python3
"""Keeps docs/openapi.yaml true: starts themed on a copy of the sample themes (plus a theme
whose parent is missing), sends requests that reach every route and every status the document
lists, and validates each response (status, headers, body) against the document with
openapi-core. Fails when a response does not match, when a documented route or status is never
exercised (except the few listed in UNREACHABLE, with the reason), when the served
/openapi.json differs from the YAML, or when the router has a route the document lacks.

    python3 scripts/check-openapi.py --themed .build/release/themed
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import requests
import yaml
from openapi_core import Config, OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = "check-openapi-token"

# Statuses the document lists that a loopback test cannot produce, and why.
UNREACHABLE = {
    ("/active", "put", "403"): "only a client off the loopback interface gets 403 (no token configured)",
    ("/healthz", "get", "503"): "served only while the first index is built (a few ms for the sample themes)",
    ("/readyz", "get", "503"): "needs a drain or a cluster store (Tests/ClusterTests/ReplicaTests.swift)",
    ("/active", "put", "503"): "needs a cluster store that is down (Tests/ClusterTests)",
}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cases(blob):
    """(method, path, headers, body, status, documented path)."""
    json_headers = {"Content-Type": "application/json"}
    auth = {"Authorization": "Bearer " + TOKEN, **json_headers}
    return [
        ("GET", "/healthz", {}, None, 200, "/healthz"),
        ("GET", "/readyz", {}, None, 200, "/readyz"),
        ("GET", "/metrics", {}, None, 200, "/metrics"),
        ("GET", "/openapi.json", {}, None, 200, "/openapi.json"),
        ("GET", "/active", {}, None, 200, "/active"),
        ("PUT", "/active", auth, json.dumps({"theme": "dark"}), 200, "/active"),
        ("PUT", "/active", auth, "not json", 400, "/active"),
        ("PUT", "/active", json_headers, json.dumps({"theme": "dark"}), 401, "/active"),
        ("PUT", "/active", auth, json.dumps({"theme": "nope"}), 404, "/active"),
        ("GET", "/themes", {}, None, 200, "/themes"),
        ("GET", "/themes", "etag", None, 304, "/themes"),
        ("GET", "/themes/light", {}, None, 200, "/themes/{theme}"),
        ("GET", "/themes/light", "etag", None, 304, "/themes/{theme}"),
        ("GET", "/themes/nope", {}, None, 404, "/themes/{theme}"),
        ("GET", "/themes/orphan", {}, None, 503, "/themes/{theme}"),
        ("GET", "/themes/light/colors", {}, None, 200, "/themes/{theme}/colors"),
        ("GET", "/themes/light/colors?appearance=dark", {}, None, 200, "/themes/{theme}/colors"),
        ("GET", "/themes/light/colors?appearance=dark", "etag", None, 304, "/themes/{theme}/colors"),
        ("GET", "/themes/light/colors?scale=7", {}, None, 400, "/themes/{theme}/colors"),
        ("GET", "/themes/nope/colors", {}, None, 404, "/themes/{theme}/colors"),
        ("GET", "/themes/orphan/colors", {}, None, 503, "/themes/{theme}/colors"),
        ("GET", "/themes/light/colors/accent", {}, None, 200, "/themes/{theme}/colors/{name}"),
        ("GET", "/themes/current/colors/accent?appearance=dark&gamut=p3", {}, None, 200, "/themes/{theme}/colors/{name}"),
        ("GET", "/themes/light/colors/accent", "etag", None, 304, "/themes/{theme}/colors/{name}"),
        ("GET", "/themes/light/colors/accent?scale=x", {}, None, 400, "/themes/{theme}/colors/{name}"),
        ("GET", "/themes/light/colors/missing", {}, None, 404, "/themes/{theme}/colors/{name}"),
        ("GET", "/themes/orphan/colors/accent", {}, None, 503, "/themes/{theme}/colors/{name}"),
        ("GET", "/themes/light/images/logo?scale=2", {}, None, 200, "/themes/{theme}/images/{name}"),
        ("GET", "/themes/light/images/logo?scale=2", "etag", None, 304, "/themes/{theme}/images/{name}"),
        ("GET", "/themes/light/images/logo?idiom=toaster", {}, None, 400, "/themes/{theme}/images/{name}"),
        ("GET", "/themes/light/images/missing", {}, None, 404, "/themes/{theme}/images/{name}"),
        ("GET", "/themes/light/images/logo?format=webp&w=16", {}, None, 200, "/themes/{theme}/images/{name}"),
        ("GET", "/themes/light/images/logo?format=bmp", {}, None, 400, "/themes/{theme}/images/{name}"),
        ("GET", "/themes/broken/images/bad?format=png", {}, None, 422, "/themes/{theme}/images/{name}"),
        ("GET", "/themes/orphan/images/logo", {}, None, 503, "/themes/{theme}/images/{name}"),
        ("GET", "/", {}, None, 200, "/"),
        ("GET", "/", "etag", None, 304, "/"),
        ("GET", "/themes/light/gallery", {}, None, 200, "/themes/{theme}/gallery"),
        ("GET", "/themes/light/gallery", "etag", None, 304, "/themes/{theme}/gallery"),
        ("GET", "/themes/nope/gallery", {}, None, 404, "/themes/{theme}/gallery"),
        ("GET", "/themes/orphan/gallery", {}, None, 503, "/themes/{theme}/gallery"),
        ("GET", "/gallery/gallery.css", {}, None, 200, "/gallery/{file}"),
        ("GET", "/gallery/gallery.js", "etag", None, 304, "/gallery/{file}"),
        ("GET", "/gallery/nope.js", {}, None, 404, "/gallery/{file}"),
        ("GET", "/themed.js", {}, None, 200, "/themed.js"),
        ("GET", "/themed.js", "etag", None, 304, "/themed.js"),
        ("GET", "/themes/light/colors.css", {}, None, 200, "/themes/{theme}/colors.css"),
        ("GET", "/themes/light/colors.css", "etag", None, 304, "/themes/{theme}/colors.css"),
        ("GET", "/themes/nope/colors.css", {}, None, 404, "/themes/{theme}/colors.css"),
        ("GET", "/themes/orphan/colors.css", {}, None, 503, "/themes/{theme}/colors.css"),
        ("GET", "/themes/light/tokens.json?mode=dark", {}, None, 200, "/themes/{theme}/tokens.json"),
        ("GET", "/themes/light/tokens.json?mode=dark", "etag", None, 304, "/themes/{theme}/tokens.json"),
        ("GET", "/themes/light/tokens.json?mode=dim", {}, None, 400, "/themes/{theme}/tokens.json"),
        ("GET", "/themes/nope/tokens.json", {}, None, 404, "/themes/{theme}/tokens.json"),
        ("GET", "/themes/orphan/tokens.json", {}, None, 503, "/themes/{theme}/tokens.json"),
        ("GET", "/themes/light/exports", {}, None, 200, "/themes/{theme}/exports"),
        ("GET", "/themes/light/exports", "etag", None, 304, "/themes/{theme}/exports"),
        ("GET", "/themes/nope/exports", {}, None, 404, "/themes/{theme}/exports"),
        ("GET", "/themes/orphan/exports", {}, None, 503, "/themes/{theme}/exports"),
        ("GET", "/themes/light/exports/swift/LightColors.swift", {}, None, 200, "/themes/{theme}/exports/{format}/{file}"),
        ("GET", "/themes/light/exports/css/colors.css", "etag", None, 304, "/themes/{theme}/exports/{format}/{file}"),
        ("GET", "/themes/light/exports/sketch/colors", {}, None, 404, "/themes/{theme}/exports/{format}/{file}"),
        ("GET", "/themes/orphan/exports/css/colors.css", {}, None, 503, "/themes/{theme}/exports/{format}/{file}"),
        ("GET", "/themes/light/exports/android/values-night/colors.xml", {}, None, 200, "/themes/{theme}/exports/{format}/{folder}/{file}"),
        ("GET", "/themes/light/exports/dtcg/tokens/dark.tokens.json", "etag", None, 304, "/themes/{theme}/exports/{format}/{folder}/{file}"),
        ("GET", "/themes/light/exports/android/values-dim/colors.xml", {}, None, 404, "/themes/{theme}/exports/{format}/{folder}/{file}"),
        ("GET", "/themes/orphan/exports/android/values/colors.xml", {}, None, 503, "/themes/{theme}/exports/{format}/{folder}/{file}"),
        ("GET", "/themes/light/images?limit=1", {}, None, 200, "/themes/{theme}/images"),
        ("GET", "/themes/light/images?limit=1", "etag", None, 304, "/themes/{theme}/images"),
        ("GET", "/themes/light/images?limit=0", {}, None, 400, "/themes/{theme}/images"),
        ("GET", "/themes/nope/images", {}, None, 404, "/themes/{theme}/images"),
        ("GET", "/themes/orphan/images", {}, None, 503, "/themes/{theme}/images"),
        ("GET", "/themes/light/images/logo.json", {}, None, 200, "/themes/{theme}/images/{name}.json"),
        ("GET", "/themes/light/images/logo.json", "etag", None, 304, "/themes/{theme}/images/{name}.json"),
        ("GET", "/themes/light/images/logo.json?scale=0", {}, None, 400, "/themes/{theme}/images/{name}.json"),
        ("GET", "/themes/light/images/missing.json", {}, None, 404, "/themes/{theme}/images/{name}.json"),
        ("GET", "/themes/orphan/images/logo.json", {}, None, 503, "/themes/{theme}/images/{name}.json"),
        ("GET", blob, {}, None, 200, "/blobs/{name}"),
        ("GET", blob, "etag", None, 304, "/blobs/{name}"),
        ("GET", "/blobs/not-a-hash", {}, None, 400, "/blobs/{name}"),
        ("GET", "/blobs/" + "0" * 64, {}, None, 404, "/blobs/{name}"),
        ("GET", "/themes/brand/strings", {}, None, 200, "/themes/{theme}/strings"),
        ("GET", "/themes/brand/strings", "etag", None, 304, "/themes/{theme}/strings"),
        ("GET", "/themes/nope/strings", {}, None, 404, "/themes/{theme}/strings"),
        ("GET", "/themes/orphan/strings", {}, None, 503, "/themes/{theme}/strings"),
        ("GET", "/themes/brand/strings/Localizable?lang=fr", {}, None, 200, "/themes/{theme}/strings/{table}"),
        ("GET", "/themes/brand/strings/Localizable?lang=fr", "etag", None, 304, "/themes/{theme}/strings/{table}"),
        ("GET", "/themes/brand/strings/Localizable?count=-1", {}, None, 400, "/themes/{theme}/strings/{table}"),
        ("GET", "/themes/brand/strings/Missing", {}, None, 404, "/themes/{theme}/strings/{table}"),
        ("GET", "/themes/orphan/strings/Localizable", {}, None, 503, "/themes/{theme}/strings/{table}"),
        ("GET", "/themes/brand/strings/Localizable/welcome?lang=fr", {}, None, 200, "/themes/{theme}/strings/{table}/{key}"),
        ("GET", "/themes/brand/strings/Localizable/welcome?lang=fr", "etag", None, 304, "/themes/{theme}/strings/{table}/{key}"),
        ("GET", "/themes/brand/strings/Localizable/welcome?count=x", {}, None, 400, "/themes/{theme}/strings/{table}/{key}"),
        ("GET", "/themes/brand/strings/Localizable/missing", {}, None, 404, "/themes/{theme}/strings/{table}/{key}"),
        ("GET", "/themes/orphan/strings/Localizable/welcome", {}, None, 503, "/themes/{theme}/strings/{table}/{key}"),
        ("GET", "/events", "stream", None, 200, "/events"),
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", default=os.path.join(ROOT, ".build/release/themed"))
    args = parser.parse_args()
    with open(os.path.join(ROOT, "docs/openapi.yaml")) as file:
        spec = yaml.safe_load(file)

    work = tempfile.mkdtemp(prefix="themed-openapi-")
    server = None
    try:
        themes = os.path.join(work, "themes")
        shutil.copytree(os.path.join(ROOT, "themes"), themes)
        os.makedirs(os.path.join(themes, "orphan"))
        with open(os.path.join(themes, "orphan", "theme.json"), "w") as file:
            json.dump({"parent": "missing"}, file)
        # A theme whose image is a broken WebP: served as stored, 422 when asked as PNG.
        broken = os.path.join(themes, "broken", "Theme.xcassets", "bad.imageset")
        os.makedirs(broken)
        with open(os.path.join(broken, "bad.webp"), "wb") as file:
            file.write(b"RIFF\x10\x00\x00\x00WEBPVP8 garbage-garbage")
        with open(os.path.join(broken, "Contents.json"), "w") as file:
            json.dump({"images": [{"idiom": "universal", "filename": "bad.webp", "scale": "1x"}], "info": {"author": "xcode", "version": 1}}, file)
        port = free_port()
        with open(os.path.join(work, "themed.json"), "w") as file:
            json.dump({"watch": False, "activeToken": TOKEN, "port": port, "themes": themes,
                       "db": os.path.join(work, "index.sqlite"), "blobs": os.path.join(work, "blobs")}, file)
        log = open(os.path.join(work, "themed.log"), "w")
        server = subprocess.Popen([args.themed, "serve", "--config", os.path.join(work, "themed.json")], stdout=log, stderr=log)
        base = "http://127.0.0.1:%d" % port
        # Validated against this server rather than the document's example one.
        # Exports are text (CSS, XML, Swift) or DTCG JSON under its own media type.
        text = lambda body, **parameters: body.decode("utf-8") if isinstance(body, bytes) else body
        config = Config(extra_media_type_deserializers={
            "application/design-tokens+json": lambda body, **parameters: json.loads(body), "text/css": text, "application/xml": text, "text/x-swift": text,
            "text/html": text, "text/javascript": text})
        openapi = OpenAPI.from_dict(dict(spec, servers=[{"url": base}]), config=config)
        for _ in range(200):
            try:
                if requests.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except requests.ConnectionError:
                time.sleep(0.05)
        else:
            sys.exit("themed did not start: " + open(os.path.join(work, "themed.log")).read())

        served = requests.get(base + "/openapi.json").json()
        problems = []
        if served != spec:
            problems.append("/openapi.json differs from docs/openapi.yaml (run scripts/embed.py)")

        blob = requests.get(base + "/themes/light/images/logo.json").json()["chosen"]["blob"]
        covered = set()
        session = requests.Session()
        for method, path, headers, body, expected, template in cases(blob):
            if headers == "etag":
                # The same request again, naming the ETag it got (the ETag depends on the encoding).
                first = session.request(method, base + path)
                headers = {"If-None-Match": first.headers.get("ETag", "")}
            if headers == "stream":
                # The events missed since id 0 are replayed at once: the first chunk is read.
                prepared = session.prepare_request(requests.Request(method, base + path + "?lastEventId=0"))
                response = session.send(prepared, stream=True, timeout=5)
                first_event = b""
                while not first_event.endswith(b"\n\n"):
                    first_event += response.raw.read(1) or b"\n\n"
                response._content = first_event
                response.close()
            else:
                prepared = session.prepare_request(requests.Request(method, base + path, headers=headers, data=body))
                response = session.send(prepared, timeout=30)
            label = "%s %s -> %d" % (method, path, response.status_code)
            if response.status_code != expected:
                problems.append("%s: expected %d" % (label, expected))
                continue
            try:
                openapi.validate_response(RequestsOpenAPIRequest(prepared), RequestsOpenAPIResponse(response))
            except Exception as error:  # openapi-core raises one of several validation errors
                details = getattr(error, "__cause__", None) or error
                problems.append("%s: %s: %s" % (label, type(error).__name__, details))
                continue
            covered.add((template, method.lower(), str(expected)))

        documented = {(path, method, status) for path, item in spec["paths"].items() for method, operation in item.items()
                      if method in ("get", "put", "post", "delete") for status in operation["responses"]}
        for missing in sorted(documented - covered):
            if missing not in UNREACHABLE:
                problems.append("documented but never exercised: %s %s %s" % (missing[1].upper(), missing[0], missing[2]))

        # Every route the router has is documented.
        routes = set()
        for source in os.listdir(os.path.join(ROOT, "Sources/ThemeServer/Routes")):
            text = open(os.path.join(ROOT, "Sources/ThemeServer/Routes", source)).read()
            routes.update(re.findall(r'(?:\.get\(|Route\(\[[^\]]*\], )"(/[^"]*)"', text))
        for route in sorted(routes):
            # A `{rest...}` parameter takes one or more segments: documented as `{rest}` or
            # as paths with more parameters after the prefix.
            prefix = route.split("{", 1)[0] if route.endswith("...}") else None
            listed = re.sub(r"\{(\w+)\.\.\.\}", r"{\1}", route) in spec["paths"] or (
                prefix is not None and any(path.startswith(prefix) and path.count("/") >= route.count("/") for path in spec["paths"]))
            if not listed:
                problems.append("route %s is not in docs/openapi.yaml" % route)

        print("openapi: %d responses validated over %d documented route/status pairs (%d not reachable here: %s)"
              % (len(cases(blob)), len(documented), len(UNREACHABLE), "; ".join(UNREACHABLE.values())))
        if problems:
            print("\n".join("  " + problem for problem in problems))
            return 1
        print("openapi: every response matches docs/openapi.yaml")
        return 0
    finally:
        if server:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
