#!/usr/bin/env python3
"""The gallery and themed.js in a real browser (Debian's chromium and chromium-driver, driven by
selenium), against a real themed serving a copy of the sample themes:

1. `/` lists every theme `/themes` has; `/themes/light/gallery` shows a row per colour and a
   swatch per colour and mode the API resolves.
2. The appearance control switches the palette themed.js applies: the preview's computed
   `--primary` is the colour route's dark value, then its light value.
3. A .car compiled here and dropped into the theme folder appears on the page through /events,
   without a reload.
4. themed stopped: the page says the server is away and keeps the palette; themed started again:
   the page is live again and shows a change made after the restart.
5. A page on another origin imports /themed.js from themed, reads the API and follows /events,
   and a palette that follows the alias `current` reads its pinned base and moves on a switch
   (CORS and EventSource across origins).
6. A theme whose colour name is markup is shown as text: nothing it names runs.
7. A theme of converted tokens lists its warnings and is ok.
8. A token theme's modifier chosen by name (`brand`): choosing `portal` shows portal's colours.
10. colors.css with light-dark(): every colour Chromium computes from it, in light and dark, high
   contrast, P3 and under a data-theme, equals what it computes from the block-per-scheme form.
9. With a cluster store: the rollouts under way, and a theme's newest release against the one
   before it on its page (each colour changed, mode by mode, swatches side by side).

Screenshots (light, dark, phone width) are saved under out/browser/.

    python3 scripts/check-browser.py --themed .build/release/themed
"""
import argparse
import functools
import http.server
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

import requests
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.webdriver.support.ui import WebDriverWait
from sample_themes import SAMPLE_BUILDS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCREENSHOTS = os.path.join(ROOT, "out", "browser")
HOSTILE = "<img src=x onerror=window.pwned=1>"
MODES = ["appearance=light&contrast=normal&gamut=srgb", "appearance=dark&contrast=normal&gamut=srgb",
         "appearance=light&contrast=high&gamut=srgb", "appearance=dark&contrast=high&gamut=srgb",
         "appearance=light&contrast=normal&gamut=p3", "appearance=dark&contrast=normal&gamut=p3"]

CROSS_ORIGIN_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>another origin</title></head>
<body><p id="status">loading</p>
<script type="module">
  import { ThemedPalette } from "%(server)s/themed.js";
  const palette = new ThemedPalette({ server: "%(server)s", theme: "light", appearance: "dark" });
  window.events = [];
  palette.addEventListener("change", (event) => window.events.push(event.detail.type));
  palette.addEventListener("status", (event) => { document.getElementById("status").textContent = event.detail.status; });
  await palette.start();
  window.themes = (await (await fetch("%(server)s/themes")).json()).themes.map((theme) => theme.name);
  // A second palette follows the alias `current`: its assignment, read at the pinned base.
  const assigned = new ThemedPalette({ server: "%(server)s", element: document.body });
  window.assignments = [];
  assigned.addEventListener("assignment", (event) => window.assignments.push(event.detail.theme + "@" + event.detail.generation));
  assigned.follow();
  await assigned.followAlias("current", { appVersion: "5.3.1", attributes: { tier: "beta" } });
  window.assignedTheme = () => assigned.theme;
</script></body></html>
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def color_set(folder, name, rgb, dark_rgb=None):
    path = os.path.join(folder, name + ".colorset")
    os.makedirs(path, exist_ok=True)
    def entry(values, appearance=None):
        color = {"idiom": "universal", "color": {"color-space": "srgb", "components": {
            "red": "%.3f" % values[0], "green": "%.3f" % values[1], "blue": "%.3f" % values[2], "alpha": "1.000"}}}
        if appearance:
            color["appearances"] = [{"appearance": "luminosity", "value": appearance}]
        return color
    colors = [entry(rgb)] + ([entry(dark_rgb, "dark")] if dark_rgb else [])
    with open(os.path.join(path, "Contents.json"), "w") as file:
        json.dump({"colors": colors, "info": {"author": "xcode", "version": 1}}, file)


OPERATOR_TOKEN = "check-browser-operator-token"


class Themed:
    """themed serving a folder on a fixed port, stopped and started again by the test."""

    def __init__(self, binary, work, port, cluster=None):
        self.binary, self.work, self.port = binary, work, port
        self.base = "http://127.0.0.1:%d" % port
        settings = {"port": port, "themes": os.path.join(work, "themes"), "db": os.path.join(work, "index.sqlite"),
                    "blobs": os.path.join(work, "blobs")}
        if cluster:
            # With a cluster store every change needs a token, loopback included.
            settings.update(cluster=cluster, watch=False, activeToken=OPERATOR_TOKEN)
        with open(os.path.join(work, "themed.json"), "w") as file:
            json.dump(settings, file)
        self.process = None

    def start(self):
        log = open(os.path.join(self.work, "themed.log"), "a")
        self.process = subprocess.Popen([self.binary, "serve", "--config", os.path.join(self.work, "themed.json")], stdout=log, stderr=log)
        for _ in range(400):
            try:
                if requests.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except requests.ConnectionError:
                pass
            time.sleep(0.05)
        sys.exit("themed did not start: " + open(os.path.join(self.work, "themed.log")).read())

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=10)

    def get(self, path):
        return requests.get(self.base + path).json()


def compile_car(themed, work, name, rgb, destination):
    """A .car holding one colour, compiled by `themed compile` and moved into place at once."""
    source = os.path.join(work, "drop-%s.xcassets" % name)
    os.makedirs(source, exist_ok=True)
    with open(os.path.join(source, "Contents.json"), "w") as file:
        json.dump({"info": {"author": "xcode", "version": 1}}, file)
    color_set(source, name, rgb)
    built = os.path.join(work, "drop-%s.car" % name)
    subprocess.run([themed, "compile", source, "-o", built], check=True, capture_output=True)
    os.replace(built, destination)


def browser():
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(argument)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        options.binary_location = binary
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(driver_path), options=options)


class Check:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def that(self, condition, message):
        if condition:
            self.passed += 1
            print("  ok   " + message)
        else:
            self.failures.append(message)
            print("  FAIL " + message)


def wait(driver, predicate, timeout=15):
    try:
        WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: predicate(d))
        return True
    except Exception:
        return False


def rollouts_in_cluster(themed_binary, driver, check):
    """The gallery's rollout line, on a themed following a throwaway PostgreSQL: a release of
    light to 10% of clients, assignments asked, the table read."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import cluster_harness as cluster
    cluster.PG_PORT = free_port()
    postgres = cluster.Postgres(tempfile.mkdtemp(prefix="themed-browser-pg-"))
    postgres.init()
    postgres.start()
    work = tempfile.mkdtemp(prefix="themed-browser-cluster-")
    server = None
    try:
        url = "postgresql://postgres@127.0.0.1:%d/postgres" % cluster.PG_PORT
        run = lambda *arguments: subprocess.run([themed_binary, *arguments], check=True, capture_output=True, text=True).stdout
        run("publish", "--cluster", url, "light", os.path.join(ROOT, "themes/light"))
        generation = int(run("publish", "--cluster", url, "--rollout", "10", "light", os.path.join(ROOT, "themes/dark")).split()[3])
        server = Themed(themed_binary, work, free_port(), cluster=url)
        server.start()
        # A draft of light (the light sample's content again, against the rollout's dark content),
        # posted by a team's token: listed for review.
        team = run("token", "create", "--cluster", url, "--name", "design-ci", "--can", "publish").strip()
        upload = io.BytesIO()
        with tarfile.open(fileobj=upload, mode="w:gz") as tar:
            tar.add(os.path.join(ROOT, "themes/light/Theme.xcassets"), arcname="Theme.xcassets")
        posted = requests.post(server.base + "/themes/light/releases?draft=1", data=upload.getvalue(),
                               headers={"Authorization": "Bearer " + team, "Content-Type": "application/gzip"})
        check.that(posted.status_code == 202, "a team's token posts a draft of light (%d)" % posted.status_code)
        draft = posted.json()
        kept = requests.put(server.base + "/aliases/acme", json={"theme": "light"}, headers={"Authorization": "Bearer " + OPERATOR_TOKEN})
        check.that(kept.status_code == 200, "the operator's token keeps an alias in the cluster store (%d)" % kept.status_code)
        for number in range(200):
            requests.get(server.base + "/assign/acme?client=c%d" % number)
        driver.get(server.base + "/")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "tr[data-rollout='light'] td[data-assignments]"))
        row = driver.find_element(By.CSS_SELECTOR, "tr[data-rollout='light']")
        percent = row.find_element(By.CSS_SELECTOR, "td[data-percent]").text
        counts = dict(part.split(": ") for part in row.find_element(By.CSS_SELECTOR, "td[data-assignments]").text.split(", "))
        check.that(percent == "10%" and str(generation) in counts and sum(int(c) for c in counts.values()) == 200,
                   "/ shows light's rollout at 10%% with this replica's 200 assignments by generation (%s, %s)" % (percent, counts))
        # The theme's page: its newest release against the one before, swatches side by side.
        expected = requests.get(server.base + "/themes/light/diff").json()
        want = {(change["name"], mode["mode"]): [mode["before"], mode["after"]] for change in expected["changed"] for mode in change["modes"]}
        driver.get(server.base + "/themes/light/gallery")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#release-diff tr[data-diff-color]"))
        shown, painted = {}, []
        for row in driver.find_elements(By.CSS_SELECTOR, "#release-diff tr[data-diff-color]"):
            fills = row.find_elements(By.CSS_SELECTOR, "span[data-hex]")
            shown[(row.get_attribute("data-diff-color"), row.get_attribute("data-diff-mode"))] = [fill.get_attribute("data-hex") for fill in fills]
            for fill in fills:
                hex_value = fill.get_attribute("data-hex")
                rgb = tuple(int(hex_value[i:i + 2], 16) for i in (1, 3, 5))
                painted.append(driver.execute_script("return getComputedStyle(arguments[0]).backgroundColor", fill) in
                               ("rgb(%d, %d, %d)" % rgb, "rgba(%d, %d, %d, 1)" % rgb))
        heading = driver.find_element(By.CSS_SELECTOR, "#release-diff h3")
        driver.execute_script("arguments[0].scrollIntoView()", heading)
        driver.save_screenshot(os.path.join(SCREENSHOTS, "gallery-release-diff.png"))
        check.that(want and shown == want and heading.get_attribute("data-diff-to") == str(generation)
                   and heading.get_attribute("data-diff-from") == str(expected["from"]),
                   "light's page shows release %d against %s: every colour changed, mode by mode, before and after (%d rows)"
                   % (generation, expected["from"], len(shown)))
        check.that(painted and all(painted), "each before and after swatch of the diff is painted its colour (%d swatches)" % len(painted))
        images_changed = ["%s %s" % (change["name"], change["variant"]) for change in expected["images"]["changed"]]
        rows = driver.find_elements(By.CSS_SELECTOR, "#release-diff tr[data-diff-image]")
        if rows:
            driver.execute_script("arguments[0].scrollIntoView()", rows[0])
            driver.save_screenshot(os.path.join(SCREENSHOTS, "gallery-release-images.png"))
        loaded = [driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image)
                  for image in driver.find_elements(By.CSS_SELECTOR, "#release-diff tr[data-diff-image] img")]
        check.that(images_changed and [row.get_attribute("data-diff-image") for row in rows] == images_changed and loaded and all(loaded),
                   "the page lists each image the release changed with its before|after thumbnail shown (%d images)" % len(images_changed))
        # The draft waiting for approval: its review shown on request, colour by colour.
        review_button = driver.find_element(By.CSS_SELECTOR, "#drafts-body button[data-draft-review='%d']" % draft["id"])
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", review_button)
        review_button.click()
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#release-diff h3").text.startswith("draft %d" % draft["id"]))
        reviewed = sorted({row.get_attribute("data-diff-color") for row in driver.find_elements(By.CSS_SELECTOR, "#release-diff tr[data-diff-color]")})
        check.that(reviewed and reviewed == sorted({change["name"] for change in draft["review"]["changed"]}),
                   "light's page lists draft %d and shows its review: the colours it changes (%s)" % (draft["id"], ", ".join(reviewed)))
    finally:
        if server and server.process and server.process.poll() is None:
            server.stop()
        postgres.stop()
        shutil.rmtree(postgres.folder, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


SWATCH_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><style>%(css)s</style></head>
<body>%(swatches)s
<div data-theme="light">%(swatches)s</div>
<div data-theme="dark">%(swatches)s</div>
</body></html>
"""


def light_dark_matches_blocks(server, root, port, driver, check):
    """The light-dark() form of colors.css against the block-per-scheme form in Chromium."""
    compared, differences = 0, []
    for theme in ("light", "dark"):
        pages = {}
        plain = requests.get(server.base + "/themes/%s/colors.css" % theme).text
        properties = sorted(set(re.findall(r"^\s*(--[\w-]+):", plain, re.M)))
        swatches = "".join('<i data-p="%s" style="display:block;background-color:var(%s)"></i>' % (p, p) for p in properties)
        for form, query in (("blocks", ""), ("light-dark", "?light-dark=1")):
            css = requests.get(server.base + "/themes/%s/colors.css%s" % (theme, query)).text
            with open(os.path.join(root, "%s-%s.html" % (theme, form)), "w") as file:
                file.write(SWATCH_PAGE % {"css": css, "swatches": swatches})
            pages[form] = "http://127.0.0.1:%d/%s-%s.html" % (port, theme, form)
        for features in ([("prefers-color-scheme", "light")], [("prefers-color-scheme", "dark")],
                         [("prefers-color-scheme", "dark"), ("prefers-contrast", "more")],
                         [("prefers-color-scheme", "light"), ("color-gamut", "p3")]):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": n, "value": v} for n, v in features]})
            computed = {}
            for form, url in pages.items():
                driver.get(url)
                computed[form] = driver.execute_script(
                    "return [...document.querySelectorAll('i')].map((e) => e.dataset.p + ' ' + getComputedStyle(e).backgroundColor)")
            compared += len(computed["blocks"])
            differences += ["%s %s: %s vs %s" % (theme, features, a, b) for a, b in zip(computed["blocks"], computed["light-dark"]) if a != b]
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    check.that(compared > 0 and not differences,
               "colors.css with light-dark(): %d computed colours (schemes, contrast, gamut, data-theme) equal the block-per-scheme form's %s"
               % (compared, differences[:3]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", required=True)
    args = parser.parse_args()
    themed_binary = os.path.abspath(args.themed)
    work = tempfile.mkdtemp(prefix="themed-browser-")
    os.makedirs(SCREENSHOTS, exist_ok=True)
    shutil.copytree(os.path.join(ROOT, "themes"), os.path.join(work, "themes"), ignore=SAMPLE_BUILDS)
    hostile = os.path.join(work, "themes", "hostile", "Theme.xcassets")
    color_set(hostile, HOSTILE, (1, 0, 0))
    color_set(hostile, "primary", (0.2, 0.4, 0.6))
    # Design tokens as a converter writes them: served, with warnings the gallery shows.
    converted = os.path.join(work, "themes", "converted")
    os.makedirs(converted)
    with open(os.path.join(converted, "tokens.tokens.json"), "w") as file:
        json.dump({"color": {"$type": "color", "brand": {"$value": "#0066cc", "hover": {"$value": "#0055aa"}}},
                   "space": {"$type": "dimension", "s": {"$value": {"value": 1, "unit": "em"}}}}, file)

    # Brands chosen by name: a resolver modifier theme.json maps to no trait.
    branded = os.path.join(work, "themes", "branded")
    os.makedirs(os.path.join(branded, "brands"))
    with open(os.path.join(branded, "base.tokens.json"), "w") as file:
        json.dump({"color": {"$type": "color", "ink": {"$value": "#111111"}}}, file)
    for brand, hex in (("main", "#0066ff"), ("portal", "#ff6600")):
        with open(os.path.join(branded, "brands", brand + ".json"), "w") as file:
            json.dump({"color": {"accent": {"$type": "color", "$value": hex}}}, file)
    with open(os.path.join(branded, "branded.resolver.json"), "w") as file:
        json.dump({"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
                   "modifiers": {"brand": {"contexts": {b: [{"$ref": "brands/%s.json" % b}] for b in ("main", "portal")}, "default": "main"}},
                   "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/brand"}]}, file)

    server = Themed(themed_binary, work, free_port())
    server.start()
    other_port = free_port()
    other_root = os.path.join(work, "other-origin")
    os.makedirs(other_root)
    with open(os.path.join(other_root, "index.html"), "w") as file:
        file.write(CROSS_ORIGIN_PAGE % {"server": server.base})
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=other_root)
    http.server.SimpleHTTPRequestHandler.log_message = lambda *args: None
    other = http.server.ThreadingHTTPServer(("127.0.0.1", other_port), handler)
    threading.Thread(target=other.serve_forever, daemon=True).start()

    check = Check()
    driver = browser()
    try:
        js = driver.execute_script
        # 1. The theme list and a theme's swatches, counted against the API.
        driver.get(server.base + "/")
        themes = [theme["name"] for theme in server.get("/themes")["themes"]]
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "tr[data-theme-row]")) == len(themes))
        rows = [row.get_attribute("data-theme-row") for row in driver.find_elements(By.CSS_SELECTOR, "tr[data-theme-row]")]
        check.that(rows == themes, "/ lists the %d themes of /themes" % len(themes))
        requests.put(server.base + "/aliases/acme", json={"theme": "light", "rules": [
            {"when": {"platform": ["ios"], "appVersion": ">=5.2", "attributes": {"tier": ["beta"]}}, "theme": "dark"}, {"when": {}, "theme": "light"}]})
        driver.get(server.base + "/")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "tr[data-alias='acme'] li[data-rule]"))
        aliases = [row.get_attribute("data-alias") for row in driver.find_elements(By.CSS_SELECTOR, "tr[data-alias]")]
        rules = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "tr[data-alias='acme'] li[data-rule]")]
        check.that(aliases == ["current", "acme"] and rules == ["platform ios, app >=5.2, tier beta → dark", "everyone → light"],
                   "/ lists the aliases with their rules in order (%s, %s)" % (aliases, rules))

        driver.get(server.base + "/themes/light/gallery")
        names = server.get("/themes/light")["colors"]
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "tr[data-color]")) == len(names)
             and d.find_element(By.ID, "connection").get_attribute("data-status") == "live")
        check.that(len(driver.find_elements(By.CSS_SELECTOR, "tr[data-color]")) == len(names), "a row per colour (%d)" % len(names))
        resolved = sum(len(server.get("/themes/light/colors?" + mode)["colors"]) for mode in MODES)
        swatches = driver.find_elements(By.CSS_SELECTOR, "tr[data-color] .chip")
        check.that(len(swatches) == resolved, "a swatch per colour and mode the API resolves (%d)" % resolved)
        first_css = driver.find_element(By.CSS_SELECTOR, "tr[data-color='primary'] td[data-mode='dark'] .css").text
        check.that(first_css == server.get("/themes/light/colors/primary?appearance=dark")["css"], "the dark swatch shows the route's css")
        images = server.get("/themes/light/images")["images"]
        check.that(len(driver.find_elements(By.CSS_SELECTOR, "[data-image]")) == len(images), "a card per image (%d)" % len(images))
        check.that(all(img.get_attribute("loading") == "lazy" for img in driver.find_elements(By.CSS_SELECTOR, ".image-cell img")), "images load lazily")

        # 2. Appearance switches the palette themed.js applies.
        preview_primary = lambda d: d.execute_script("return getComputedStyle(document.getElementById('preview')).getPropertyValue('--primary').trim()")
        dark = server.get("/themes/light/colors/primary?appearance=dark")["css"]
        light = server.get("/themes/light/colors/primary?appearance=light")["css"]
        driver.find_element(By.CSS_SELECTOR, "input[name='appearance'][value='dark']").click()
        check.that(wait(driver, lambda d: preview_primary(d) == dark), "Dark: the preview's --primary is %s" % dark)
        background = js("return getComputedStyle(document.getElementById('preview')).backgroundColor")
        check.that(background == "rgb(28, 28, 30)", "Dark: the preview is painted with the theme's dark background (%s)" % background)
        driver.save_screenshot(os.path.join(SCREENSHOTS, "gallery-dark.png"))
        driver.find_element(By.CSS_SELECTOR, "input[name='appearance'][value='light']").click()
        check.that(wait(driver, lambda d: preview_primary(d) == light), "Light: the preview's --primary is %s" % light)
        driver.save_screenshot(os.path.join(SCREENSHOTS, "gallery-light.png"))
        driver.set_window_size(390, 844)
        overflow = js("return document.documentElement.scrollWidth - window.innerWidth")
        check.that(overflow <= 0, "phone width: the page does not scroll sideways (%d px)" % overflow)
        driver.save_screenshot(os.path.join(SCREENSHOTS, "gallery-phone.png"))
        driver.set_window_size(1280, 1000)

        # 3. A dropped .car shows up through /events, without a reload.
        js("window.stillThisPage = true")
        compile_car(themed_binary, work, "dropped", (0.1, 0.8, 0.3), os.path.join(work, "themes", "light", "Dropped.car"))
        appeared = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "tr[data-color='dropped']"), timeout=20)
        check.that(appeared and js("return window.stillThisPage === true"), "a dropped .car appears on the page without a reload")

        # 4. Server stopped: the page says so and keeps its palette; restarted: live again.
        server.stop()
        check.that(wait(driver, lambda d: d.find_element(By.ID, "connection").get_attribute("data-status") == "offline"),
                   "themed stopped: the page says the server is away")
        check.that(preview_primary(driver) == light, "themed stopped: the palette stays")
        server.start()
        check.that(wait(driver, lambda d: d.find_element(By.ID, "connection").get_attribute("data-status") == "live", timeout=30),
                   "themed started again: the page is live again")
        compile_car(themed_binary, work, "afterRestart", (0.9, 0.1, 0.1), os.path.join(work, "themes", "light", "After.car"))
        check.that(wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "tr[data-color='afterRestart']"), timeout=30),
                   "a change after the restart reaches the page through the resumed event stream")

        # 5. Another origin: themed.js, the API and /events across origins.
        driver.get("http://127.0.0.1:%d/index.html" % other_port)
        check.that(wait(driver, lambda d: d.find_element(By.ID, "status").text == "live"), "another origin: themed.js loads the palette")
        root_primary = js("return getComputedStyle(document.documentElement).getPropertyValue('--primary').trim()")
        check.that(root_primary == dark, "another origin: --primary on <html> is the dark value (%s)" % root_primary)
        check.that(wait(driver, lambda d: d.execute_script("return window.themes") == themes), "another origin: fetch reads /themes")
        time.sleep(0.5)  # the event stream connects after the first palette
        pinned = server.get("/assign/current?client=check")["base"].split("/")[-1]
        check.that(wait(driver, lambda d: d.execute_script("return window.assignedTheme && window.assignedTheme()") == pinned),
                   "another origin: themed.js follows the alias current at its pinned base (%s)" % pinned)
        requests.put(server.base + "/active", json={"theme": "dark"})
        check.that(wait(driver, lambda d: "active-changed" in (d.execute_script("return window.events") or [])),
                   "another origin: EventSource receives active-changed")
        moved = server.get("/assign/current?client=check")["base"].split("/")[-1]
        check.that(wait(driver, lambda d: d.execute_script("return window.assignedTheme()") == moved),
                   "another origin: assignment-changed moves the followed alias to %s" % moved)

        # Strings: a column per language, plural forms as the API lists them.
        driver.get(server.base + "/themes/brand/gallery")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#strings-body tr[data-key]"))
        table = server.get("/themes/brand/strings")["tables"][0]
        languages = sorted({lang for source in server.get("/themes/brand")["sources"] for lang in source.get("localizations", [])} - {"Base"})
        headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#strings-body thead th")][1:]
        check.that(headers == languages, "strings: a column per language %s" % languages)
        keys = sorted(set().union(*(server.get("/themes/brand/strings/%s?lang=%s" % (table, lang))["strings"].keys() for lang in languages)))
        shown = [row.get_attribute("data-key") for row in driver.find_elements(By.CSS_SELECTOR, "#strings-body tr[data-key]")]
        check.that(shown == keys, "strings: a row per key (%d)" % len(keys))
        forms = sum(len(requests.get("%s/themes/brand/strings/%s/%s?lang=%s" % (server.base, table, requests.utils.quote(key, safe=""), lang)).json().get("forms", {}))
                    for key in keys for lang in languages)
        plural = len(driver.find_elements(By.CSS_SELECTOR, "#strings-body .plural"))
        check.that(forms > 0 and plural == forms, "strings: the plural forms the API lists (%d)" % forms)

        # 6. Markup in a colour name is text.
        driver.get(server.base + "/themes/hostile/gallery")
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "tr[data-color]")) == 2)
        shown = [code.text for code in driver.find_elements(By.CSS_SELECTOR, "tr[data-color] th code")]
        check.that(HOSTILE in shown, "a name made of markup is shown as text")
        check.that(js("return window.pwned") is None and not driver.find_elements(By.CSS_SELECTOR, "#colors-body img"),
                   "nothing a theme names runs or becomes an element")
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE" and "favicon" not in entry["message"]]
        check.that(not errors, "no script errors in the console %s" % [e["message"][:200] for e in errors])

        # 7. Warnings: what a converter wrote, served and listed on the theme's page, the theme not degraded.
        warnings = server.get("/themes/converted")["warnings"]
        driver.get(server.base + "/themes/converted/gallery")
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#theme-warnings li")) == len(warnings))
        shown = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#theme-warnings li")]
        driver.save_screenshot(os.path.join(SCREENSHOTS, "gallery-warnings.png"))
        check.that(len(warnings) == 3 and shown == warnings and driver.find_element(By.ID, "theme-summary").text.startswith("ok "),
                   "a theme's page lists its %d warnings (draft-form, unit, token-group) and calls it ok" % len(warnings))

        # 8. A token theme's modifier chosen by name: the colours follow the choice.
        driver.get(server.base + "/themes/branded/gallery")
        accent = "tr[data-color='color.accent'] td[data-mode='light'] .css"
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#modifiers select[data-modifier='brand']") and d.find_elements(By.CSS_SELECTOR, accent))
        main = driver.find_element(By.CSS_SELECTOR, accent).text
        Select(driver.find_element(By.CSS_SELECTOR, "#modifiers select[data-modifier='brand']")).select_by_value("portal")
        portal = server.get("/themes/branded/colors/color.accent?brand=portal&appearance=light")["css"]
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, accent).text == portal)
        driver.save_screenshot(os.path.join(SCREENSHOTS, "gallery-modifier.png"))
        check.that(main == server.get("/themes/branded/colors/color.accent?appearance=light")["css"]
                   and driver.find_element(By.CSS_SELECTOR, accent).text == portal and portal != main,
                   "choosing brand portal in the gallery shows portal's accent (%s, was %s)" % (portal, main))

        # 10. colors.css with light-dark(): every colour Chromium computes from it equals what it
        # computes from the block-per-scheme colors.css, in each scheme, contrast and gamut, and
        # under a data-theme that forces a scheme.
        light_dark_matches_blocks(server, other_root, other_port, driver, check)

        # 9. With a cluster store: the rollouts under way, and a theme's newest release against the one
        # before it on its page.
        rollouts_in_cluster(themed_binary, driver, check)
    finally:
        driver.quit()
        other.shutdown()
        if server.process and server.process.poll() is None:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("screenshots: %s" % ", ".join(sorted(os.listdir(SCREENSHOTS))))
    if check.failures:
        sys.exit("browser: %d of %d checks failed" % (len(check.failures), len(check.failures) + check.passed))
    print("browser: %d checks passed" % check.passed)


if __name__ == "__main__":
    main()
