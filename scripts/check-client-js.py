#!/usr/bin/env python3
"""themed.js against the clients' contract (docs/CLIENTS.md, clients/scenarios.tsv) in headless
Chromium (Debian's chromium and chromium-driver, driven by selenium).

A scripted server here misbehaves on cue, as the Swift suite's ScriptedServer does: it serves a
page and web/themed.js on one origin, and under /s/<scenario>/ the palette, /assign and /events
as each scenario scripts them. Each scenario is a function of the page (SCENARIOS below) that
sets window.result to {ok, detail}. Prints one line a scenario and 'N passed, N failed'; exits 1
when any failed.
"""
import argparse
import http.server
import json
import os
import shutil
import socket
import sys
import threading
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def palette(colors, status="ok", revisions=None):
    return {"theme": "t", "status": status, "revisions": revisions or {}, "colors": {name: {"hex": hex, "css": "#" + hex[1:7].lower()} for name, hex in colors.items()}}


class Script:
    """What one scenario's server does: its mode, and what it was asked."""

    def __init__(self):
        self.lock = threading.Lock()
        self.mode = "good"
        self.requests = []          # (path, query) of every request
        self.palettes = 0           # palette requests answered
        self.streams = 0            # event streams opened
        self.times = []             # when palettes were asked (refetch-spread)

    def count(self, path, query):
        with self.lock:
            self.requests.append((path, query))


SCRIPTS = {}


def script(name):
    return SCRIPTS.setdefault(name, Script())


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    page = b""
    module = b""

    def log_message(self, *args):
        pass

    def handle(self):
        # A page that gave up on an answer (a timeout, stop()) closed its connection: not an error.
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send(self, status, body, content_type="application/json", headers=()):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/":
            return self.send(200, self.page, "text/html")
        if url.path == "/themed.js":
            return self.send(200, self.module, "text/javascript")
        parts = url.path.split("/")
        if len(parts) < 4 or parts[1] != "s":
            return self.send(404, {"error": "no such path"})
        name, rest = parts[2], "/" + "/".join(parts[3:])
        state = script(name)
        state.count(rest, query)
        handler = getattr(self, "scenario_" + name.replace("-", "_"), None)
        if handler is None:
            return self.send(404, {"error": "no scenario " + name})
        return handler(state, rest, query)

    # A stream that stays open, with what the scenario writes first.
    def stream(self, state, opening, keep_open=True):
        with state.lock:
            state.streams += 1
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(opening.encode())
        self.wfile.flush()
        deadline = time.time() + 20
        while keep_open and time.time() < deadline and state.mode != "closed":
            time.sleep(0.2)
            try:
                self.wfile.write(b": heartbeat\n\n")
                self.wfile.flush()
            except OSError:
                return
        self.close_connection = True

    def scenario_offline_start_catch_up(self, state, path, query):
        if state.mode == "down":
            return self.send(503, {"error": "starting"})
        if path == "/events":
            return self.stream(state, "retry: 50\n\nid: 1\n\n")
        # Back with another active theme than the page last saw.
        return self.send(200, palette({"primary": "#0000FFFF" if state.mode == "switched" else "#00FF00FF"}))

    def scenario_stale_answer_dropped(self, state, path, query):
        if path == "/events":
            return self.stream(state, "retry: 50\n\nid: 1\n\n")
        if query.get("appearance") == "light":
            time.sleep(1.0)
            return self.send(200, palette({"primary": "#FFFFFFFF"}))
        return self.send(200, palette({"primary": "#000000FF"}))

    def scenario_degraded_theme(self, state, path, query):
        if state.mode == "broken":
            return self.send(200, palette({"background": "#EEEEEEFF"}, status="degraded"))
        return self.send(200, palette({"primary": "#102030FF", "background": "#FFFFFFFF"}))

    def scenario_garbage_200(self, state, path, query):
        if state.mode == "portal":
            return self.send(200, b"<html>Sign in to the Wi-Fi</html>", "text/html")
        if state.mode == "empty":
            return self.send(200, {"theme": "t"})
        return self.send(200, palette({"primary": "#102030FF"}))

    def scenario_cut_stream(self, state, path, query):
        if path == "/events":
            return self.stream(state, "id: 9\nevent: theme-rel", keep_open=False)
        return self.send(200, palette({"primary": "#102030FF"}))

    def scenario_hung_server(self, state, path, query):
        if state.mode == "hang":
            time.sleep(3)
        return self.send(200, palette({"primary": "#102030FF"}))

    def scenario_throwing_listener(self, state, path, query):
        return self.send(200, palette({"primary": "#102030FF"}))

    def scenario_close_while_hanging(self, state, path, query):
        time.sleep(5)
        return self.send(200, palette({"primary": "#102030FF"}))

    def scenario_unwritable_cache(self, state, path, query):
        return self.send(200, palette({"primary": "#102030FF"}))

    def scenario_alias_offline(self, state, path, query):
        if state.mode == "down":
            return self.send(503, {"error": "away"})
        if path.startswith("/assign/"):
            return self.send(200, {"alias": "acme", "theme": "dark", "generation": 4, "base": "/themes/dark@4", "reason": "default"})
        if path == "/events":
            return self.stream(state, "retry: 50\n\nid: 1\n\n")
        return self.send(200, palette({"primary": "#222222FF"}))

    def scenario_unrelated_reloads_ignored(self, state, path, query):
        if path == "/events":
            return self.stream(state, "retry: 50\n\nid: 1\n\n")
        return self.send(200, palette({"primary": "#102030FF"}))

    def scenario_failed_refresh_retried(self, state, path, query):
        if path == "/events":
            seen = self.headers.get("Last-Event-ID") == "5" or query.get("lastEventId") == "5"
            return self.stream(state, "retry: 50\n\n" + ("" if seen else "id: 5\nevent: theme-reloaded\ndata: {\"theme\":\"t\"}\n\n") + "id: 5\n\n")
        with state.lock:
            state.palettes += 1
            number = state.palettes
        # The first answer, the revalidation at the opening, then a 500 (the event's), then the new one.
        if number == 3:
            return self.send(500, {"error": "boom"})
        return self.send(200, palette({"primary": "#FFFFFFFF" if number > 3 else "#000000FF"}))

    def scenario_refetch_spread(self, state, path, query):
        if path == "/events":
            return self.stream(state, "retry: 50\n\nid: 1\n\nid: 2\nevent: theme-reloaded\ndata: {\"theme\":\"t\",\"refetchWithin\":800}\n\n")
        with state.lock:
            state.palettes += 1
            state.times.append(time.monotonic())
        return self.send(200, palette({"primary": "#102030FF"}))

    def scenario_held_revision_skipped(self, state, path, query):
        if path == "/events":
            return self.stream(state, "retry: 50\n\nid: 1\n\n"
                               + "id: 2\nevent: theme-reloaded\ndata: {\"theme\":\"t\",\"revision\":\"r1\"}\n\n"
                               + "id: 3\nevent: theme-reloaded\ndata: {\"theme\":\"t\",\"revision\":\"r2\"}\n\n")
        with state.lock:
            state.palettes += 1
            number = state.palettes
        # The first answer and the opening's revalidation hold r1; r2 is fetched for its event.
        held = "r1" if number <= 2 else "r2"
        return self.send(200, palette({"primary": "#000000FF" if number <= 2 else "#FFFFFFFF"}, revisions={"t": held}))


# Each scenario as the page runs it: `server` is this scenario's base, `control(mode)` sets the
# scripted server's mode, `asked()` reads what it was asked; window.result says how it went.
PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body><div id="target"></div>
<script type="module">
import { ThemedPalette } from "/themed.js";
const name = new URLSearchParams(location.search).get("scenario");
const server = location.origin + "/s/" + name;
const control = (mode) => fetch("/control?" + new URLSearchParams({ name, mode }));
const asked = async () => (await fetch("/asked?" + new URLSearchParams({ name }))).json();
const until = async (condition, ms = 10000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) { if (await condition()) return true; await new Promise((r) => setTimeout(r, 25)); }
  return false;
};
const make = (options = {}) => new ThemedPalette({ server, theme: "t", appearance: "dark", element: document.getElementById("target"), ...options });
const scenarios = {
  "offline-start-catch-up": async () => {
    localStorage.clear();
    const first = make(); await first.refresh(); first.stop();
    await control("down");
    const p = make(); p.follow(); await p.refresh();
    const offline = p.status === "offline" && p.colors.primary?.hex === "#00FF00FF";
    await control("switched");
    const caught = await until(() => p.status === "live" && p.colors.primary?.hex === "#0000FFFF");
    p.stop();
    return { ok: offline && caught, detail: `offline from storage ${offline}, live again ${caught}` };
  },
  "stale-answer-dropped": async () => {
    const p = make({ appearance: "light" });
    const slow = p.refresh();
    await new Promise((r) => setTimeout(r, 100));
    await p.setAppearance("dark");
    await slow;
    return { ok: p.colors.primary?.hex === "#000000FF", detail: p.colors.primary?.hex };
  },
  "degraded-theme": async () => {
    localStorage.clear();
    const p = make(); await p.refresh();
    let missing = null;
    p.addEventListener("status", (e) => { if (e.detail.status === "degraded") missing = e.detail.missing; });
    await control("broken"); await p.refresh();
    const kept = p.colors.primary?.hex === "#102030FF" && p.colors.background?.hex === "#EEEEEEFF";
    const stored = make(); stored.applyCached();
    const ok = kept && p.status === "degraded" && JSON.stringify(missing) === '["primary"]' && stored.colors.primary?.hex === "#102030FF";
    return { ok, detail: `kept ${kept}, status ${p.status}, missing ${JSON.stringify(missing)}, stored ${stored.colors.primary?.hex}` };
  },
  "garbage-200": async () => {
    localStorage.clear();
    const p = make(); await p.refresh();
    const results = [];
    for (const mode of ["portal", "empty"]) {
      await control(mode);
      const succeeded = await p.refresh();
      const stored = make(); stored.applyCached();
      results.push(!succeeded && p.colors.primary?.hex === "#102030FF" && stored.colors.primary?.hex === "#102030FF"
        && document.getElementById("target").style.getPropertyValue("--primary") !== "");
    }
    return { ok: results.every(Boolean), detail: JSON.stringify(results) };
  },
  "cut-stream": async () => {
    const p = make(); await p.refresh(); p.follow();
    const reopened = await until(async () => (await asked()).streams >= 3);
    p.stop();
    return { ok: reopened && p.lastEventId === null, detail: `reopened ${reopened}, lastEventId ${p.lastEventId}` };
  },
  "hung-server": async () => {
    const p = make({ requestTimeout: 500 }); await p.refresh();
    await control("hang");
    const started = Date.now();
    const succeeded = await p.refresh();
    const took = Date.now() - started;
    return { ok: !succeeded && took < 2500 && p.status === "offline" && p.colors.primary?.hex === "#102030FF", detail: `took ${took} ms, ${p.status}` };
  },
  "throwing-listener": async () => {
    const p = make();
    let later = 0;
    p.addEventListener("palette", () => { throw new Error("a listener that throws"); });
    p.addEventListener("palette", () => { later += 1; });
    const succeeded = await p.refresh();
    return { ok: succeeded && later === 1 && p.status === "live", detail: `succeeded ${succeeded}, later ${later}` };
  },
  "close-while-hanging": async () => {
    const p = make({ requestTimeout: 60000 });
    const waiting = p.refresh();
    await new Promise((r) => setTimeout(r, 200));
    const closing = performance.now();
    p.stop();
    const closed = performance.now() - closing;
    const started = Date.now();
    await waiting;
    const ended = Date.now() - started;
    const before = (await asked()).requests.length;
    await p.refresh();
    const after = (await asked()).requests.length;
    return { ok: closed < 100 && ended < 2000 && before === after, detail: `stop ${closed} ms, request ended ${ended} ms, asked after ${after - before}` };
  },
  "unwritable-cache": async () => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = () => { throw new DOMException("full", "QuotaExceededError"); };
    try {
      const p = make(); const succeeded = await p.refresh();
      return { ok: succeeded && p.status === "live" && p.colors.primary?.hex === "#102030FF", detail: p.status };
    } finally { Storage.prototype.setItem = setItem; }
  },
  "alias-offline": async () => {
    localStorage.clear();
    const first = make(); const assignment = await first.followAlias("acme"); first.stop();
    await control("down");
    const p = make(); const kept = await p.followAlias("acme");
    const offline = kept?.theme === "dark" && p.theme === "dark@4" && p.status === "offline" && p.colors.primary?.hex === "#222222FF";
    await control("good");
    p.follow();
    const live = await until(() => p.status === "live");
    p.stop();
    return { ok: assignment.theme === "dark" && offline && live, detail: `offline ${offline}, live ${live}` };
  },
  "unrelated-reloads-ignored": async () => {
    const p = make({ theme: "current" }); p.follow();
    await until(async () => (await asked()).requests.some(([path]) => path === "/events"));
    p.stop();
    const streams = (await asked()).requests.filter(([path]) => path === "/events").map(([, query]) => query.theme);
    return { ok: streams.length > 0 && streams.every((theme) => theme === "current"), detail: JSON.stringify(streams) };
  },
  "failed-refresh-retried": async () => {
    const p = make(); await p.refresh(); p.follow();
    const retried = await until(() => p.colors.primary?.hex === "#FFFFFFFF" && p.lastEventId === "5");
    const streams = (await asked()).streams;
    p.stop();
    return { ok: retried && streams >= 2, detail: `retried ${retried}, streams ${streams}` };
  },
  "held-revision-skipped": async () => {
    const p = make(); await p.refresh(); p.follow();
    const done = await until(() => p.lastEventId === "3" && p.colors.primary?.hex === "#FFFFFFFF");
    p.stop();
    const palettes = (await asked()).palettes;
    return { ok: done && palettes === 3, detail: `caught up ${done}, ${palettes} palette requests (the first, the opening's, r2's)` };
  },
  "refetch-spread": async () => {
    // The random part pinned to a half: the event's refetch comes 400 ms after the opening's.
    Math.random = () => 0.5;
    const p = make(); p.follow();
    const done = await until(async () => (await asked()).palettes >= 2 && p.lastEventId === "2");
    p.stop();
    const [opening, refetch] = (await asked()).times;
    const waited = Math.round((refetch - opening) * 1000);
    return { ok: done && waited >= 350 && waited < 2000, detail: `the event's refetch ${waited} ms after the opening's` };
  },
};
try { window.result = await scenarios[name](); } catch (error) { window.result = { ok: false, detail: String(error) }; }
</script></body></html>
"""

# Scenarios themed.js does not run here, and why.
NOT_HERE = {
    "bootstrap-304": "a page has no bootstrap file: the browser's own HTTP cache revalidates with the ETags it keeps",
    "restart-resumed": "run against a real themed by make browser-check (a restart, the stream resumed)",
}


class Control(Handler):
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/control":
            script(query["name"]).mode = query["mode"]
            return self.send(200, {"mode": query["mode"]})
        if url.path == "/asked":
            state = script(query["name"])
            with state.lock:
                return self.send(200, {"requests": state.requests, "streams": state.streams, "palettes": state.palettes,
                                       "times": state.times})
        return super().do_GET()


def browser():
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        options.binary_location = binary
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", help="one scenario")
    args = parser.parse_args()
    with open(os.path.join(ROOT, "clients", "scenarios.tsv")) as file:
        names = [line.split("\t")[0] for line in file.read().splitlines()[1:] if line]
    Control.page = PAGE.encode()
    with open(os.path.join(ROOT, "web", "themed.js"), "rb") as file:
        Control.module = file.read()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Control)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    driver = browser()
    passed = failed = 0
    try:
        for name in names:
            if args.only and name != args.only:
                continue
            if name in NOT_HERE:
                print("  --   %s: %s" % (name, NOT_HERE[name]))
                continue
            driver.get("http://127.0.0.1:%d/?scenario=%s" % (port, name))
            try:
                WebDriverWait(driver, 30, poll_frequency=0.1).until(lambda d: d.execute_script("return window.result"))
                result = driver.execute_script("return window.result")
            except Exception as error:
                result = {"ok": False, "detail": "no result: %s" % error}
            ok = bool(result and result.get("ok"))
            passed, failed = passed + ok, failed + (not ok)
            print("  %s %s: %s" % ("ok  " if ok else "FAIL", name, result.get("detail") if result else ""))
    finally:
        driver.quit()
        server.shutdown()
    print("themed.js scenarios: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
