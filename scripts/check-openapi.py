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
import base64
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
import datetime
import io
import tarfile
import urllib.parse

import requests
import yaml
from openapi_core import Config, OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse
from sample_themes import SAMPLE_BUILDS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = "check-openapi-token"
# The server runs with "imageTransforms": "signed": transforms need a sig= made with this key.
SIGNING_KEY = "check-openapi-signing-key"


def signed(target):
    """`target` with its sig= (HMAC-SHA-256 of the path and query, base64url without padding)."""
    import base64, hashlib, hmac
    tag = hmac.new(SIGNING_KEY.encode(), target.encode(), hashlib.sha256).digest()
    return target + ("&" if "?" in target else "?") + "sig=" + base64.urlsafe_b64encode(tag).decode().rstrip("=")

# Statuses the document lists that a loopback test cannot produce, and why.
UNREACHABLE = {
    ("/healthz", "get", "503"): "served only while the first index is built (a few ms for the sample themes)",
    ("/readyz", "get", "503"): "needs a drain or a cluster store (Tests/ReplicaTests/ReplicaTests.swift)",
    ("/aliases/{alias}", "put", "403"): "needs a server without activeToken and a client off loopback (AudienceRouteTests)",
    ("/aliases/{alias}", "delete", "403"): "needs a server without activeToken and a client off loopback (AudienceRouteTests)",
    ("/webhooks/deliveries", "get", "403"): "needs a server without activeToken and a client off loopback (OperatorCheckTests)",
    # A change's 202 when a replica has not served it within `wait`: the answer publish, PUT /active
    # and PUT /aliases give alike (Tests/ReplicaTests/ServedWaitTests.swift stops a replica for it).
    ("/aliases/{alias}", "delete", "202"): "needs a cluster replica that lags behind the change (ServedWaitTests)",
    ("/themes/{theme}/rollback", "post", "202"): "needs a cluster replica that lags behind the change (ServedWaitTests)",
    ("/themes/{theme}/rollout", "put", "202"): "needs a cluster replica that lags behind the change (ServedWaitTests)",
}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cases(blob, base):
    """(method, path, headers, body, status, documented path)."""
    json_headers = {"Content-Type": "application/json"}
    auth = {"Authorization": "Bearer " + TOKEN, **json_headers}
    # The base /assign gives, made when sent: a generation-pinned URL of the active theme.
    pinned = lambda rest: lambda: requests.get(base + "/assign/current?client=openapi").json()["base"] + rest
    alias = json.dumps({"theme": "light", "rules": [{"when": {"platform": ["ios"], "appVersion": ">=5.2", "locale": ["fr", "fr-*"],
                                                             "attributes": {"tier": ["beta"]}}, "theme": "dark"}]})
    return [
        ("PUT", "/aliases/acme", auth, alias, 200, "/aliases/{alias}"),
        ("PUT", "/aliases/acme", json_headers, alias, 401, "/aliases/{alias}"),
        ("PUT", "/aliases/acme", auth, "not json", 400, "/aliases/{alias}"),
        ("PUT", "/aliases/acme", auth, json.dumps({"theme": "nope"}), 404, "/aliases/{alias}"),
        ("PUT", "/aliases/acme", auth, json.dumps({"theme": "light", "rules": [{"when": {"appVersion": ">=5.x"}, "theme": "dark"}]}), 422, "/aliases/{alias}"),
        ("PUT", "/aliases/acme", auth, json.dumps({"theme": "light", "at": "2030-01-01T00:00:00Z"}), 409, "/aliases/{alias}"),
        ("GET", "/aliases", {}, None, 200, "/aliases"),
        ("GET", "/aliases/acme", {}, None, 200, "/aliases/{alias}"),
        ("GET", "/aliases/nope", {}, None, 404, "/aliases/{alias}"),
        ("GET", "/assign/acme?client=c1&platform=ios&appVersion=5.3.1&locale=fr-CA&tier=beta", {}, None, 200, "/assign/{alias}"),
        ("GET", "/assign/acme", {}, None, 400, "/assign/{alias}"),
        ("GET", "/assign/nope?client=c1", {}, None, 404, "/assign/{alias}"),
        ("GET", pinned("/colors/primary"), {}, None, 200, "/themes/{theme}/colors/{name}"),
        # Rollouts need a cluster store.
        ("GET", "/rollouts", {}, None, 200, "/rollouts"),
        ("GET", "/themes/light/rollout", {}, None, 409, "/themes/{theme}/rollout"),
        ("PUT", "/themes/light/rollout", auth, json.dumps({"generation": 1, "percent": 10}), 409, "/themes/{theme}/rollout"),
        # Every change route asks for a token first, whether or not it could make the change here.
        ("PUT", "/themes/light/rollout", json_headers, json.dumps({"generation": 1, "percent": 10}), 401, "/themes/{theme}/rollout"),
        ("DELETE", "/aliases/acme", {}, None, 401, "/aliases/{alias}"),
        ("GET", "/themes/dark@999999/colors/primary", {}, None, 404, "/themes/{theme}/colors/{name}"),
        ("DELETE", "/aliases/acme", {"Authorization": "Bearer wrong"}, None, 401, "/aliases/{alias}"),
        ("DELETE", "/aliases/acme", auth, None, 200, "/aliases/{alias}"),
        ("DELETE", "/aliases/acme", auth, None, 404, "/aliases/{alias}"),
        ("DELETE", "/aliases/current", auth, None, 400, "/aliases/{alias}"),
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
        ("GET", "/themes/light/problems", {}, None, 200, "/themes/{theme}/problems"),
        ("GET", "/themes/light/problems?severity=warning&limit=1&offset=0", {}, None, 200, "/themes/{theme}/problems"),
        ("GET", "/themes/light/problems", "etag", None, 304, "/themes/{theme}/problems"),
        ("GET", "/themes/light/problems?limit=0", {}, None, 400, "/themes/{theme}/problems"),
        ("GET", "/themes/light/problems?severity=fatal", {}, None, 400, "/themes/{theme}/problems"),
        ("GET", "/themes/nope/problems", {}, None, 404, "/themes/{theme}/problems"),
        ("GET", "/themes/orphan/problems", {}, None, 503, "/themes/{theme}/problems"),
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
        ("GET", signed("/themes/light/images/logo?format=webp&w=16"), {}, None, 200, "/themes/{theme}/images/{name}"),
        ("GET", "/themes/light/images/logo?preset=thumb", {}, None, 200, "/themes/{theme}/images/{name}"),
        ("GET", "/themes/light/images/logo?dpr=1.5", {}, None, 200, "/themes/{theme}/images/{name}"),
        ("GET", "/themes/light/images/logo?format=webp&w=17", {}, None, 403, "/themes/{theme}/images/{name}"),
        ("GET", signed("/themes/light/images/logo?format=bmp"), {}, None, 400, "/themes/{theme}/images/{name}"),
        ("GET", signed("/themes/broken/images/bad?format=png"), {}, None, 422, "/themes/{theme}/images/{name}"),
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
        ("GET", "/themes/ds/tokens", {}, None, 200, "/themes/{theme}/tokens"),
        ("GET", "/themes/ds/tokens?theme=dark", {}, None, 200, "/themes/{theme}/tokens"),
        ("GET", "/themes/ds/tokens?theme=dark", "etag", None, 304, "/themes/{theme}/tokens"),
        ("GET", "/themes/ds/tokens?mode=dark", {}, None, 400, "/themes/{theme}/tokens"),
        ("GET", "/themes/light/tokens", {}, None, 404, "/themes/{theme}/tokens"),
        ("GET", "/themes/orphan/tokens", {}, None, 503, "/themes/{theme}/tokens"),
        ("GET", "/themes/ds/tokens/semantic.bg?theme=dark", {}, None, 200, "/themes/{theme}/tokens/{path}"),
        ("GET", "/themes/ds/tokens/semantic.bg", "etag", None, 304, "/themes/{theme}/tokens/{path}"),
        ("GET", "/themes/ds/tokens/semantic.bg?theme=sepia", {}, None, 400, "/themes/{theme}/tokens/{path}"),
        ("GET", "/themes/ds/tokens/semantic.nothing", {}, None, 404, "/themes/{theme}/tokens/{path}"),
        ("GET", "/themes/orphan/tokens/semantic.bg", {}, None, 503, "/themes/{theme}/tokens/{path}"),
        ("GET", "/themes/ds/tokens.resolver.json", {}, None, 200, "/themes/{theme}/tokens.resolver.json"),
        ("GET", "/themes/ds/tokens.resolver.json", "etag", None, 304, "/themes/{theme}/tokens.resolver.json"),
        ("GET", "/themes/light/tokens.resolver.json", {}, None, 404, "/themes/{theme}/tokens.resolver.json"),
        ("GET", "/themes/orphan/tokens.resolver.json", {}, None, 503, "/themes/{theme}/tokens.resolver.json"),
        ("GET", "/themes/light/colors.css", {}, None, 200, "/themes/{theme}/colors.css"),
        ("GET", "/themes/ds/colors.css?references=1", {}, None, 200, "/themes/{theme}/colors.css"),
        ("GET", "/themes/light/exports/resolver/light.resolver.json", {}, None, 200, "/themes/{theme}/exports/{format}/{file}"),
        ("GET", "/themes/light/colors.css", "etag", None, 304, "/themes/{theme}/colors.css"),
        ("GET", "/themes/light/colors.css?prefix=9x", {}, None, 400, "/themes/{theme}/colors.css"),
        ("GET", "/themes/nope/colors.css", {}, None, 404, "/themes/{theme}/colors.css"),
        ("GET", "/themes/orphan/colors.css", {}, None, 503, "/themes/{theme}/colors.css"),
        ("GET", "/themes/light/tokens.json?mode=dark", {}, None, 200, "/themes/{theme}/tokens.json"),
        ("GET", "/themes/light/tokens.json?mode=dark", "etag", None, 304, "/themes/{theme}/tokens.json"),
        ("GET", "/themes/tokens/tokens.json?mode=dark", {}, None, 200, "/themes/{theme}/tokens.json"),
        ("GET", "/themes/light/tokens.json?mode=dim", {}, None, 400, "/themes/{theme}/tokens.json"),
        ("GET", "/themes/nope/tokens.json", {}, None, 404, "/themes/{theme}/tokens.json"),
        ("GET", "/themes/orphan/tokens.json", {}, None, 503, "/themes/{theme}/tokens.json"),
        ("GET", "/themes/light/contrast", {}, None, 200, "/themes/{theme}/contrast"),
        ("GET", "/themes/light/contrast", "etag", None, 304, "/themes/{theme}/contrast"),
        ("GET", "/themes/ds/contrast?size=huge", {}, None, 400, "/themes/{theme}/contrast"),
        ("GET", "/themes/nope/contrast", {}, None, 404, "/themes/{theme}/contrast"),
        ("GET", "/themes/orphan/contrast", {}, None, 503, "/themes/{theme}/contrast"),
        ("GET", "/themes/light/exports", {}, None, 200, "/themes/{theme}/exports"),
        ("GET", "/themes/light/exports", "etag", None, 304, "/themes/{theme}/exports"),
        ("GET", "/themes/nope/exports", {}, None, 404, "/themes/{theme}/exports"),
        ("GET", "/themes/orphan/exports", {}, None, 503, "/themes/{theme}/exports"),
        ("GET", "/themes/light/exports/swift/LightColors.swift", {}, None, 200, "/themes/{theme}/exports/{format}/{file}"),
        ("GET", "/themes/light/exports/css/colors.css", "etag", None, 304, "/themes/{theme}/exports/{format}/{file}"),
        ("GET", "/themes/light/exports/sketch/colors", {}, None, 404, "/themes/{theme}/exports/{format}/{file}"),
        ("GET", "/themes/light/exports/swift/LightColors.swift?prefix=ds", {}, None, 400, "/themes/{theme}/exports/{format}/{file}"),
        ("GET", "/themes/light/exports/android/values/colors.xml?light-dark=1", {}, None, 400, "/themes/{theme}/exports/{format}/{folder}/{file}"),
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
        ("GET", "/themes/light/images/logo.json?dpr=1.5", {}, None, 200, "/themes/{theme}/images/{name}.json"),
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
        # Releases need a cluster store: without one, 409 naming the setting.
        ("PUT", "/active", auth, json.dumps({"theme": "dark", "at": "2030-01-01T00:00:00Z"}), 409, "/active"),
        ("GET", "/themes/light/releases", {}, None, 409, "/themes/{theme}/releases"),
        ("GET", "/themes/light/diff", {}, None, 409, "/themes/{theme}/diff"),
        ("GET", "/themes/light/drafts", {}, None, 409, "/themes/{theme}/drafts"),
        ("GET", "/drafts/1", {}, None, 409, "/drafts/{id}"),
        ("PUT", "/drafts/1", auth, b"x", 409, "/drafts/{id}"),
        ("POST", "/drafts/1/approve", auth, None, 409, "/drafts/{id}/approve"),
        ("POST", "/themes/light/releases", {**auth, "Content-Type": "application/octet-stream"}, b"x", 409, "/themes/{theme}/releases"),
        ("POST", "/themes/light/rollback", auth, json.dumps({"generation": 1}), 409, "/themes/{theme}/rollback"),
        ("DELETE", "/active/schedule/1", auth, None, 409, "/active/schedule/{id}"),
        ("GET", "/webhooks/deliveries", auth, None, 200, "/webhooks/deliveries"),
        ("GET", "/webhooks/deliveries", {}, None, 401, "/webhooks/deliveries"),
        # Without a token, a change route says only that it needs one.
        ("POST", "/themes/light/releases", {"Content-Type": "application/octet-stream"}, b"x", 401, "/themes/{theme}/releases"),
        ("POST", "/themes/light/rollback", json_headers, json.dumps({"generation": 1}), 401, "/themes/{theme}/rollback"),
        ("DELETE", "/active/schedule/1", {}, None, 401, "/active/schedule/{id}"),
        ("GET", "/audit", {}, None, 409, "/audit"),
    ]


def cluster_cases(publisher, switcher, rollouts, reviewer, archive, bomb, state):
    """The release routes with a cluster store, in three lists: with the store running, with it
    stopped, and the failed-token limit. Each case is (method, path, headers, body, status,
    documented path); a path or body that is a function is made when sent, from what earlier answers put in
    `state` (the first release's generation, the schedule's id)."""
    publish = {"Authorization": "Bearer " + publisher, "Content-Type": "application/gzip"}
    activate = {"Authorization": "Bearer " + switcher, "Content-Type": "application/json"}
    wrong = {"Authorization": "Bearer themed_wrong", "Content-Type": "application/json"}
    rollouter = {"Authorization": "Bearer " + rollouts, "Content-Type": "application/json"}
    review = {"Authorization": "Bearer " + reviewer}
    draft = lambda suffix="": lambda: "/drafts/%d%s" % (state["draft"], suffix)
    json_headers = {"Content-Type": "application/json"}
    # The replica's activeToken: with a cluster store loopback is not the operator.
    operator = {"Authorization": "Bearer " + TOKEN, **json_headers}
    later = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)).isoformat()
    chunks = lambda: (part for part in (archive[:100], archive[100:]))
    return [
        # The webhooks' outbox is the store's: the subscriber's messages and failures as every replica sees them.
        ("GET", "/webhooks/deliveries", operator, None, 200, "/webhooks/deliveries"),
        ("GET", "/audit?limit=5", activate, None, 200, "/audit"),
        ("GET", "/audit?theme=dark&since=2020-01-01T00:00:00Z", activate, None, 200, "/audit"),
        ("GET", "/audit?since=yesterday", activate, None, 400, "/audit"),
        ("GET", "/audit", publish, None, 403, "/audit"),
        ("GET", "/audit", {}, None, 401, "/audit"),
        # Aliases, rollouts and assignments are the store's: the same on every replica.
        ("PUT", "/aliases/acme", json_headers, json.dumps({"theme": "dark"}), 401, "/aliases/{alias}"),
        ("PUT", "/aliases/acme", operator, json.dumps({"theme": "dark"}), 200, "/aliases/{alias}"),
        ("PUT", "/aliases/acme", rollouter, json.dumps({"theme": "dark"}), 403, "/aliases/{alias}"),
        ("PUT", "/aliases/acme", operator, json.dumps({"theme": "dark", "generation": 999999}), 422, "/aliases/{alias}"),
        ("PUT", "/aliases/staged", operator, json.dumps({"theme": "dark", "at": later}), 202, "/aliases/{alias}"),
        ("GET", "/aliases", {}, None, 200, "/aliases"),
        ("GET", "/aliases/acme", {}, None, 200, "/aliases/{alias}"),
        ("GET", "/assign/acme?client=c1", {}, None, 200, "/assign/{alias}"),
        ("GET", "/assign/current?client=c1", {}, None, 200, "/assign/{alias}"),
        ("DELETE", "/aliases/acme", {}, None, 401, "/aliases/{alias}"),
        ("DELETE", "/aliases/acme", operator, None, 200, "/aliases/{alias}"),
        ("DELETE", "/aliases/acme", operator, None, 404, "/aliases/{alias}"),
        ("POST", "/themes/brand-c/releases", publish, archive, 201, "/themes/{theme}/releases"),
        ("POST", "/themes/brand-c/releases?at=" + urllib.parse.quote(later), publish, archive, 202, "/themes/{theme}/releases"),
        ("POST", "/themes/bad%20name/releases", publish, archive, 400, "/themes/{theme}/releases"),
        ("POST", "/themes/brand-c/releases", {"Content-Type": "application/gzip"}, archive, 401, "/themes/{theme}/releases"),
        ("POST", "/themes/dark/releases", publish, archive, 403, "/themes/{theme}/releases"),
        ("POST", "/themes/brand-c/releases", publish, chunks, 411, "/themes/{theme}/releases"),
        ("POST", "/themes/brand-c/releases", publish, bomb, 413, "/themes/{theme}/releases"),
        ("POST", "/themes/brand-c/releases", dict(publish, **{"Content-Type": "text/plain"}), archive, 415, "/themes/{theme}/releases"),
        ("POST", "/themes/brand-c/releases", dict(publish, **{"Content-Type": "application/octet-stream"}), b"not a catalog", 422,
         "/themes/{theme}/releases"),
        ("GET", "/themes/brand-c/releases", {}, None, 200, "/themes/{theme}/releases"),
        ("GET", "/themes/brand-c", {}, None, 200, "/themes/{theme}"),
        ("GET", "/themes/nope/releases", {}, None, 404, "/themes/{theme}/releases"),
        ("POST", "/themes/brand-c/rollback", dict(publish, **{"Content-Type": "application/json"}), json.dumps({"generation": "first"}), 400,
         "/themes/{theme}/rollback"),
        ("POST", "/themes/brand-c/rollback", {"Content-Type": "application/json"}, json.dumps({"generation": 1}), 401, "/themes/{theme}/rollback"),
        ("POST", "/themes/dark/rollback", dict(publish, **{"Content-Type": "application/json"}), json.dumps({"generation": 1}), 403,
         "/themes/{theme}/rollback"),
        ("POST", "/themes/brand-c/rollback", dict(publish, **{"Content-Type": "application/json"}), json.dumps({"generation": 999999}), 404,
         "/themes/{theme}/rollback"),
        ("POST", "/themes/brand-c/rollback", dict(publish, **{"Content-Type": "application/json"}), lambda: json.dumps({"generation": state["generation"]}), 201,
         "/themes/{theme}/rollback"),
        # A draft: listed, read, posted again, approved by a reviewer (not the publisher), then closed.
        ("POST", "/themes/brand-c/releases?draft=1", publish, archive, 202, "/themes/{theme}/releases"),
        ("GET", "/themes/brand-c/drafts", {}, None, 200, "/themes/{theme}/drafts"),
        ("GET", draft(), {}, None, 200, "/drafts/{id}"),
        ("GET", "/drafts/999999", {}, None, 404, "/drafts/{id}"),
        ("PUT", draft(), publish, archive, 200, "/drafts/{id}"),
        ("PUT", draft(), {"Content-Type": "application/gzip"}, archive, 401, "/drafts/{id}"),
        ("PUT", draft(), review, archive, 403, "/drafts/{id}"),
        ("PUT", "/drafts/999999", publish, archive, 404, "/drafts/{id}"),
        ("PUT", draft(), dict(publish, **{"Content-Type": "text/plain"}), archive, 415, "/drafts/{id}"),
        ("PUT", draft(), dict(publish, **{"Content-Type": "application/octet-stream"}), b"not a catalog", 422, "/drafts/{id}"),
        ("POST", draft("/approve"), {}, None, 401, "/drafts/{id}/approve"),
        ("POST", draft("/approve"), publish, None, 403, "/drafts/{id}/approve"),
        ("POST", "/drafts/999999/approve", review, None, 404, "/drafts/{id}/approve"),
        ("POST", draft("/approve"), review, None, 201, "/drafts/{id}/approve"),
        ("POST", draft("/approve"), review, None, 409, "/drafts/{id}/approve"),
        ("PUT", draft(), publish, archive, 409, "/drafts/{id}"),
        # Approved with a time: scheduled. Under a policy of two: the first approval is counted.
        ("POST", "/themes/brand-c/releases?draft=1&at=" + urllib.parse.quote(later), publish, archive, 202, "/themes/{theme}/releases"),
        ("POST", draft("/approve"), review, None, 202, "/drafts/{id}/approve"),
        ("POST", "/themes/brand-p/releases?draft=1", publish, archive, 202, "/themes/{theme}/releases"),
        ("POST", draft("/approve"), review, None, 200, "/drafts/{id}/approve"),
        # The rollback against the release before it, in each form.
        ("GET", "/themes/brand-c/diff", {}, None, 200, "/themes/{theme}/diff"),
        ("GET", "/themes/brand-c/diff?format=markdown", {}, None, 200, "/themes/{theme}/diff"),
        ("GET", "/themes/brand-c/diff?format=text", {}, None, 200, "/themes/{theme}/diff"),
        ("GET", "/themes/brand-c/diff?from=first", {}, None, 400, "/themes/{theme}/diff"),
        ("GET", "/themes/brand-c/diff?from=999999", {}, None, 404, "/themes/{theme}/diff"),
        ("GET", "/themes/nope/diff", {}, None, 404, "/themes/{theme}/diff"),
        # A release published into a rollout, widened by a token that may roll it out.
        ("POST", "/themes/brand-c/releases?rollout=10", publish, archive, 201, "/themes/{theme}/releases"),
        ("POST", "/themes/brand-c/releases?rollout=150", publish, archive, 400, "/themes/{theme}/releases"),
        ("GET", "/rollouts", {}, None, 200, "/rollouts"),
        ("GET", "/themes/brand-c/rollout", {}, None, 200, "/themes/{theme}/rollout"),
        ("GET", "/themes/dark/rollout", {}, None, 404, "/themes/{theme}/rollout"),
        ("PUT", "/themes/brand-c/rollout", rollouter, lambda: json.dumps({"generation": state["rollout"], "percent": 25}), 200, "/themes/{theme}/rollout"),
        ("PUT", "/themes/brand-c/rollout", rollouter, json.dumps({"generation": "newest"}), 400, "/themes/{theme}/rollout"),
        ("PUT", "/themes/brand-c/rollout", publish, lambda: json.dumps({"generation": state["rollout"], "percent": 50}), 403, "/themes/{theme}/rollout"),
        ("PUT", "/themes/brand-c/rollout", json_headers, json.dumps({"generation": 1, "percent": 5}), 401, "/themes/{theme}/rollout"),
        ("PUT", "/themes/brand-none/rollout", operator, json.dumps({"generation": 1, "percent": 5}), 404, "/themes/{theme}/rollout"),
        ("PUT", "/themes/brand-c/rollout", rollouter, lambda: json.dumps({"generation": state["generation"], "percent": 5}), 422, "/themes/{theme}/rollout"),
        ("PUT", "/themes/brand-c/rollout", rollouter, lambda: json.dumps({"generation": state["rollout"], "percent": 100}), 200, "/themes/{theme}/rollout"),
        ("PUT", "/active", json_headers, json.dumps({"theme": "dark"}), 401, "/active"),
        ("PUT", "/active", activate, json.dumps({"theme": "dark", "at": later}), 202, "/active"),
        ("PUT", "/active", dict(publish, **{"Content-Type": "application/json"}), json.dumps({"theme": "dark"}), 403, "/active"),
        ("GET", "/active", {}, None, 200, "/active"),
        ("DELETE", lambda: "/active/schedule/%d" % state["schedule"], {}, None, 401, "/active/schedule/{id}"),
        ("DELETE", lambda: "/active/schedule/%d" % state["schedule"], publish, None, 403, "/active/schedule/{id}"),
        ("DELETE", lambda: "/active/schedule/%d" % state["schedule"], activate, None, 200, "/active/schedule/{id}"),
        ("DELETE", lambda: "/active/schedule/%d" % state["schedule"], activate, None, 404, "/active/schedule/{id}"),
        # This replica is shard 1 of 2: a theme shard 2 owns is sent there.
        ("PUT", "/active", activate, json.dumps({"theme": "elsewhere"}), 421, "/active"),
    ] + [("GET", "/themes/elsewhere" + suffix, {}, None, 421, "/themes/{theme}" + template) for suffix, template in [
        ("", ""), ("/problems", "/problems"), ("/gallery", "/gallery"), ("/colors", "/colors"), ("/colors/primary", "/colors/{name}"), ("/colors.css", "/colors.css"),
        ("/tokens.json", "/tokens.json"), ("/tokens", "/tokens"), ("/tokens/a.b", "/tokens/{path}"),
        ("/tokens.resolver.json", "/tokens.resolver.json"), ("/contrast", "/contrast"), ("/exports", "/exports"), ("/exports/css/colors.css", "/exports/{format}/{file}"),
        ("/exports/android/values-night/colors.xml", "/exports/{format}/{folder}/{file}"), ("/images", "/images"),
        ("/images/logo.json", "/images/{name}.json"), ("/images/logo", "/images/{name}"), ("/strings", "/strings"),
        ("/strings/Localizable", "/strings/{table}"), ("/strings/Localizable/hello", "/strings/{table}/{key}")]], [
        # With the store stopped: nothing can be checked or stored.
        ("POST", "/themes/brand-c/releases", publish, archive, 503, "/themes/{theme}/releases"),
        ("PUT", "/active", activate, json.dumps({"theme": "dark"}), 503, "/active"),
        ("GET", "/audit", activate, None, 503, "/audit"),
        ("GET", "/themes/brand-c/diff", {}, None, 503, "/themes/{theme}/diff"),
        ("GET", "/themes/brand-c/drafts", {}, None, 503, "/themes/{theme}/drafts"),
        ("PUT", "/aliases/acme", operator, json.dumps({"theme": "dark"}), 503, "/aliases/{alias}"),
        ("PUT", "/themes/brand-c/rollout", operator, json.dumps({"generation": 1, "percent": 5}), 503, "/themes/{theme}/rollout"),
        ("GET", "/webhooks/deliveries", operator, None, 503, "/webhooks/deliveries"),
    ], [("POST", "/themes/brand-c/rollback", wrong, json.dumps({"generation": 1}), 401, "/themes/{theme}/rollback")] * 9 + [
        ("PUT", "/themes/brand-c/rollout", wrong, json.dumps({"generation": 1, "percent": 5}), 401, "/themes/{theme}/rollout"),
    ] + [
        # Past ten unknown tokens, this address is refused for a minute, whatever it presents.
        ("POST", "/themes/brand-c/releases", publish, archive, 429, "/themes/{theme}/releases"),
        ("POST", "/themes/brand-c/rollback", wrong, json.dumps({"generation": 1}), 429, "/themes/{theme}/rollback"),
        ("PUT", "/active", wrong, json.dumps({"theme": "dark"}), 429, "/active"),
        ("DELETE", "/active/schedule/1", wrong, None, 429, "/active/schedule/{id}"),
        ("GET", "/audit", wrong, None, 429, "/audit"),
    ]


def exercise(session, base, openapi, cases, problems, covered, state):
    """Sends each case and validates its answer against the document."""
    for method, path, headers, body, expected, template in cases:
        path = path() if callable(path) else path
        body = body() if callable(body) else body
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
            response = session.send(prepared, timeout=60)
        label = "%s %s -> %d" % (method, path, response.status_code)
        if response.status_code != expected:
            problems.append("%s: expected %d: %s" % (label, expected, response.text[:300]))
            continue
        if response.status_code == 201 and "generation" not in state:
            state["generation"] = response.json()["generation"]
        if response.status_code == 201 and "rollout=" in path:
            state["rollout"] = response.json()["generation"]
        if response.status_code == 202 and method == "PUT":
            state["schedule"] = response.json()["scheduled"]["id"]
        if response.status_code == 202 and "draft=1" in path:
            state["draft"] = response.json()["id"]
        if not isinstance(prepared.body, (bytes, str, type(None))):
            prepared.body = b""  # a chunked body, sent and gone: the answer is what is checked
        try:
            openapi.validate_response(RequestsOpenAPIRequest(prepared), RequestsOpenAPIResponse(response))
        except Exception as error:  # openapi-core raises one of several validation errors
            details = getattr(error, "__cause__", None) or error
            problems.append("%s: %s: %s" % (label, type(error).__name__, details))
            continue
        covered.add((template, method.lower(), str(expected)))


def with_cluster(themed, work, config, spec, problems, covered):
    """A second themed, following a throwaway PostgreSQL, for the release routes, and shard 1 of 2
    for the 421s; returns how many requests it sent."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import cluster_harness as cluster
    cluster.PG_PORT = free_port()
    # Beside `work`, not in it: the server runs as the postgres user, who cannot enter `work`.
    postgres = cluster.Postgres(tempfile.mkdtemp(prefix="themed-openapi-pg-"))
    postgres.init()
    postgres.start()
    server = None
    try:
        url = "postgresql://postgres@127.0.0.1:%d/postgres" % cluster.PG_PORT
        run = lambda *arguments: subprocess.run([themed, *arguments], check=True, capture_output=True, text=True).stdout.strip()
        run("publish", "--cluster", url, "dark", os.path.join(ROOT, "themes/dark"))
        publisher = run("token", "create", "--cluster", url, "--name", "brand-ci", "--themes", "brand-*")
        switcher = run("token", "create", "--cluster", url, "--name", "ops", "--can", "publish,activate")
        rollouts = run("token", "create", "--cluster", url, "--name", "rollouts", "--themes", "brand-*", "--can", "rollout")
        reviewer = run("token", "create", "--cluster", url, "--name", "reviewer", "--themes", "brand-*", "--can", "review")
        run("policy", "set", "--cluster", url, "brand-p", "--require-approval", "2")
        archive = io.BytesIO()
        with tarfile.open(fileobj=archive, mode="w:gz") as tar:
            tar.add(os.path.join(ROOT, "themes/light/Theme.xcassets"), arcname="Theme.xcassets")
        bomb = io.BytesIO()
        with tarfile.open(fileobj=bomb, mode="w:gz") as tar:
            zeros = bytes(3 << 20)
            info = tarfile.TarInfo("Theme.xcassets/zeros.bin")
            info.size = len(zeros)
            tar.addfile(info, io.BytesIO(zeros))
        folder = os.path.join(work, "replica")
        os.makedirs(folder)
        port = free_port()
        with open(os.path.join(folder, "themed.json"), "w") as file:
            # A webhook subscriber that never answers: its outbox is the store's, unreadable while it is stopped.
            webhooks = [{"url": "http://127.0.0.1:%d/hook" % free_port(), "secret": "whsec_" + base64.b64encode(bytes(24)).decode(), "events": ["theme-error"]}]
            json.dump({"watch": False, "port": port, "cluster": url, "activeToken": TOKEN, "releaseMaxBytes": 2 << 20, "shard": "1/2", "themes": os.path.join(folder, "themes"),
                       "webhooks": webhooks,
                       "db": os.path.join(folder, "index.sqlite"), "blobs": os.path.join(folder, "blobs")}, file)
        log = open(os.path.join(folder, "themed.log"), "w")
        server = subprocess.Popen([themed, "serve", "--config", os.path.join(folder, "themed.json")], stdout=log, stderr=log)
        base = "http://127.0.0.1:%d" % port
        if not cluster.wait_until(lambda: cluster.get(port, "/readyz")[0] == 200, 30, 0.05):
            sys.exit("themed with a cluster store did not start: " + open(os.path.join(folder, "themed.log")).read())
        openapi = OpenAPI.from_dict(dict(spec, servers=[{"url": base}]), config=config)
        state = {}
        running, stopped, limited = cluster_cases(publisher, switcher, rollouts, reviewer, archive.getvalue(), bomb.getvalue(), state)
        exercise(requests.Session(), base, openapi, running, problems, covered, state)
        postgres.stop()
        exercise(requests.Session(), base, openapi, stopped, problems, covered, state)
        postgres.start()
        exercise(requests.Session(), base, openapi, limited, problems, covered, state)
        return len(running) + len(stopped) + len(limited)
    finally:
        if server:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        postgres.stop()
        shutil.rmtree(postgres.folder, ignore_errors=True)


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
        shutil.copytree(os.path.join(ROOT, "themes"), themes, ignore=SAMPLE_BUILDS)
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
        # A theme of design tokens: base tokens and a resolver with a light/dark modifier.
        tokens = os.path.join(themes, "ds")
        os.makedirs(os.path.join(tokens, "modes"))
        gray = lambda v: {"$value": {"colorSpace": "srgb", "components": [v, v, v]}}
        documents = {
            "base.tokens.json": {"color": {"$type": "color", "gray": {"0": gray(1), "9": gray(0.1)}}},
            "modes/light.json": {"semantic": {"bg": {"$value": "{color.gray.0}"}}},
            "modes/dark.json": {"semantic": {"bg": {"$value": "{color.gray.9}"}}},
            "ds.resolver.json": {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
                                 "modifiers": {"theme": {"contexts": {"light": [{"$ref": "modes/light.json"}], "dark": [{"$ref": "modes/dark.json"}]}},
                                               "size": {"contexts": {"normal": [], "large": []}}},
                                 "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}, {"$ref": "#/modifiers/size"}]},
            "theme.json": {"traits": {"theme": {"light": {"appearance": "light"}, "dark": {"appearance": "dark"}}}},
        }
        for name, document in documents.items():
            with open(os.path.join(tokens, name), "w") as file:
                json.dump(document, file)
        port = free_port()
        with open(os.path.join(work, "themed.json"), "w") as file:
            json.dump({"watch": False, "activeToken": TOKEN, "port": port, "themes": themes,
                       "db": os.path.join(work, "index.sqlite"), "blobs": os.path.join(work, "blobs"),
                       "imageTransforms": "signed", "imageSigningKeys": [SIGNING_KEY],
                       "imagePresets": {"thumb": {"w": 24, "h": 24, "fit": "cover", "format": "webp", "q": 70}}}, file)
        log = open(os.path.join(work, "themed.log"), "w")
        server = subprocess.Popen([args.themed, "serve", "--config", os.path.join(work, "themed.json")], stdout=log, stderr=log)
        base = "http://127.0.0.1:%d" % port
        # Validated against this server rather than the document's example one.
        # Exports are text (CSS, XML, Swift) or DTCG JSON under its own media type.
        text = lambda body, **parameters: body.decode("utf-8") if isinstance(body, bytes) else body
        config = Config(extra_media_type_deserializers={
            "application/design-tokens+json": lambda body, **parameters: json.loads(body), "text/css": text, "application/xml": text, "text/x-swift": text,
            "text/html": text, "text/javascript": text})
        openapi_config = config
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
        exercise(requests.Session(), base, openapi, cases(blob, base), problems, covered, {})
        count = len(cases(blob, base))
        count += with_cluster(args.themed, work, openapi_config, spec, problems, covered)

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
              % (count, len(documented), len(UNREACHABLE), "; ".join(UNREACHABLE.values())))
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
