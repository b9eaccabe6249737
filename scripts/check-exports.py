#!/usr/bin/env python3
"""Checks the colour exports with real parsers against the colour route.

Starts themed on a copy of the sample themes plus two made here: `awkward` (names that are not
identifiers, that collide, that hold comment terminators and markup; colours with only a dark
value) and `many` (3,000 colours). For every theme and format it fetches the export and checks:

- CSS parses with tinycss2 without errors; every custom property's effective value in each
  mode (the cascade of :root, the dark media query, P3 and high-contrast blocks) equals the
  `css` the colour route answers for that mode;
- each DTCG file follows the format's rules (names, $type, the colour module's value) and its
  values equal the route's components;
- Android XML parses, names follow Android's resource-name rule, values equal the route's hex;
- the Swift file passes `swiftc -parse`;
- the Compose file compiles with Debian's `kotlinc` against a stub of Compose's Color, and its
  values equal the route's hex;
- `themed export --format android` (colours, drawables at five densities, strings with plurals)
  is a resource folder Debian's `aapt package` takes against `android-framework-res`, with each
  drawable at its density's size;
- the route's bytes equal `themed export`'s, and a second request gives the same bytes.

What cannot run (no kotlinc, no aapt) is said, and fails the check: `make test` installs both.

    python3 scripts/check-exports.py --themed .build/release/themed
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

import requests
import tinycss2

from local_themed import LocalThemed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = {
    "light": "appearance=light&contrast=normal&gamut=srgb",
    "dark": "appearance=dark&contrast=normal&gamut=srgb",
    "light-high-contrast": "appearance=light&contrast=high&gamut=srgb",
    "dark-high-contrast": "appearance=dark&contrast=high&gamut=srgb",
    "light-p3": "appearance=light&contrast=normal&gamut=p3",
    "dark-p3": "appearance=dark&contrast=normal&gamut=p3",
}
AWKWARD_NAMES = ["primary tint", "primary-tint", "primaryTint", "2x", "class", "Scene.Onboarding tint",
                 "x*⁄ end", "a--b", "<b>bold</b>", "$dollar", "quote\"d", "颜色", "a2B", "x9y", "HTMLColor", "default"]


def color_set(folder, name, variants):
    path = os.path.join(folder, name + ".colorset")
    os.makedirs(path, exist_ok=True)
    colors = []
    for appearance, rgb in variants:
        entry = {"idiom": "universal", "color": {"color-space": "srgb", "components": {
            "red": "%.3f" % rgb[0], "green": "%.3f" % rgb[1], "blue": "%.3f" % rgb[2], "alpha": "1.000"}}}
        if appearance:
            entry["appearances"] = [{"appearance": "luminosity", "value": appearance}]
        colors.append(entry)
    with open(os.path.join(path, "Contents.json"), "w") as file:
        json.dump({"colors": colors, "info": {"author": "xcode", "version": 1}}, file)


def make_themes(themes):
    shutil.copytree(os.path.join(ROOT, "themes"), themes)
    awkward = os.path.join(themes, "awkward", "Theme.xcassets")
    for index, name in enumerate(AWKWARD_NAMES):
        # Names with `/` would be folders; the others are kept as the colour's name.
        variants = [("dark", (index / 20, 0.5, 0.25))] if index % 2 else [(None, (0.1, index / 20, 0.3)), ("dark", (0.9, 0.2, index / 20))]
        color_set(awkward, name, variants)
    many = os.path.join(themes, "many", "Theme.xcassets")
    for index in range(3000):
        color_set(many, "color %04d" % index,
                  [(None, (index % 256 / 255, 0.5, 0.5)), ("dark", (0.5, index % 256 / 255, 0.5))])


def words(name):
    """docs/EXPORTS.md rule 1, written again here from the document: runs of ASCII letters and
    digits, split where an upper-case letter follows a lower-case letter or a digit, and before
    the last capital of a run of capitals that a lower-case letter follows."""
    found = []
    for run in re.findall(r"[A-Za-z0-9]+", name):
        start = 0
        for i in range(1, len(run)):
            before, here, after = run[i - 1], run[i], run[i + 1] if i + 1 < len(run) else ""
            if here.isupper() and (before.islower() or before.isdigit() or (before.isupper() and after.islower())):
                found.append(run[start:i])
                start = i
        found.append(run[start:])
    return found


def export_names(names, plain, numbered):
    """Rule 4: the first in name order keeps a shared name, the others take the next free number."""
    claims = {}
    for name in names:
        claims.setdefault(plain(name), []).append(name)
    taken = set(claims)
    result = {}
    for shared, group in claims.items():
        result[group[0]] = shared
        number = 2
        for later in group[1:]:
            while numbered(shared, number) in taken:
                number += 1
            taken.add(numbered(shared, number))
            result[later] = numbered(shared, number)
    return result


def css_name(name):
    return "--" + ("-".join(w.lower() for w in words(name)) or "color")


JAVA_KEYWORDS = {"class", "new", "int", "default", "public", "static", "void", "true", "false", "null", "switch", "case"}


def android_name(name):
    joined = "_".join(w.lower() for w in words(name))
    return joined if joined and not joined[0].isdigit() and joined not in JAVA_KEYWORDS else "color_" + joined


KOTLIN_KEYWORDS = {"as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is", "null",
                   "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof", "val", "var", "when", "while"}


def kotlin_name(name):
    """Written here from the rule in docs/EXPORTS.md, not from the Swift code."""
    parts = words(name)
    if not parts:
        return "color"
    joined = parts[0].lower() + "".join(w[:1].upper() + w[1:].lower() for w in parts[1:])
    if joined[0].isdigit():
        joined = "color" + joined[:1].upper() + joined[1:]
    return joined + "Color" if joined in KOTLIN_KEYWORDS else joined


def route_values(base, theme, names):
    """The colour route's answer for every name and mode: {mode: {name: body}}."""
    session = requests.Session()
    values = {}
    for mode, query in MODES.items():
        values[mode] = {}
        for name in names:
            response = session.get("%s/themes/%s/colors/%s?%s" % (base, theme, requests.utils.quote(name, safe=""), query))
            if response.status_code == 200:
                values[mode][name] = response.json()
    return values


def css_effective(text, problems, label):
    """{mode: {property: value}} as a browser computes it for :root in each mode."""
    rules = tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True)

    def walk(rules, conditions, out):
        for rule in rules:
            if rule.type == "error":
                problems.append("%s: CSS error %s" % (label, rule.message))
            elif rule.type == "at-rule":
                condition = tinycss2.serialize(rule.prelude).strip()
                walk(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True), conditions + [condition], out)
            elif rule.type == "qualified-rule":
                selector = tinycss2.serialize(rule.prelude).strip()
                declarations = {}
                for item in tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True):
                    if item.type == "error":
                        problems.append("%s: CSS error %s" % (label, item.message))
                    elif item.type == "declaration":
                        if not item.name.startswith("--"):
                            problems.append("%s: %s is not a custom property" % (label, item.name))
                        declarations[item.name] = tinycss2.serialize(item.value).strip()
                out.append((conditions, selector, declarations))

    blocks = []
    walk(rules, [], blocks)
    effective = {}
    for mode in MODES:
        dark = mode.startswith("dark")
        active = {"(prefers-color-scheme: dark)": dark, "(color-gamut: p3)": mode.endswith("p3"),
                  "(prefers-contrast: more)": "high-contrast" in mode}
        values = {}
        # The system's preference, :root only; and the same with the scheme forced by data-theme.
        for conditions, selector, declarations in blocks:
            if selector == ":root" and all(active.get(c.replace("@media", "").strip(), False) for c in conditions):
                values.update(declarations)
        forced = {}
        wanted = '[data-theme="dark"]' if dark else '[data-theme="light"]'
        for conditions, selector, declarations in blocks:
            conditions_hold = all(active.get(c.replace("@media", "").strip(), False) if "prefers-color-scheme" not in c else True
                                  for c in conditions)
            if selector == wanted and conditions_hold:
                forced.update(declarations)
        effective[mode] = (values, forced)
    return effective


def check_css(text, theme, names, route, problems):
    label = "%s colors.css" % theme
    effective = css_effective(text, problems, label)
    properties = export_names(names, css_name, lambda shared, n: "%s-%d" % (shared, n))
    for mode, (values, forced) in effective.items():
        for name, body in route[mode].items():
            if "css" not in body:
                continue
            if values.get(properties[name]) != body["css"]:
                problems.append("%s: %s (%s) in %s is %s, the route says %s" % (label, name, properties[name], mode, values.get(properties[name]), body["css"]))
            if forced.get(properties[name]) != body["css"]:
                problems.append("%s: data-theme %s gives %s for %s" % (label, mode, forced.get(properties[name]), name))
        extra = set(values) - set(properties[name] for name in route[mode])
        if extra:
            problems.append("%s: %s has properties the route has no colour for: %s" % (label, mode, sorted(extra)[:5]))


def check_tokens(base, theme, route, problems):
    for mode in MODES:
        label = "%s tokens %s" % (theme, mode)
        response = requests.get("%s/themes/%s/tokens.json?mode=%s" % (base, theme, mode))
        tokens = json.loads(response.content)
        if not isinstance(tokens.get("$description"), str):
            problems.append("%s: the root group has no $description" % label)
        seen = {}
        for key, token in tokens.items():
            if key.startswith("$"):
                continue
            if any(c in key for c in "{}.") or key.startswith("$"):
                problems.append("%s: %r is not a DTCG token name" % (label, key))
            value = token.get("$value", {})
            if token.get("$type") != "color" or not isinstance(token.get("$description"), str):
                problems.append("%s: %r lacks $type color or $description" % (label, key))
            if value.get("colorSpace") not in ("srgb", "display-p3", "srgb-linear"):
                problems.append("%s: %r has colorSpace %r" % (label, key, value.get("colorSpace")))
            components = value.get("components")
            if not (isinstance(components, list) and len(components) == 3 and all(isinstance(c, (int, float)) for c in components)):
                problems.append("%s: %r components %r" % (label, key, components))
                continue
            if not (0 <= value.get("alpha", -1) <= 1) or not re.fullmatch(r"#[0-9a-f]{6}", value.get("hex", "")):
                problems.append("%s: %r alpha or hex invalid" % (label, key))
            name = token.get("$extensions", {}).get("org.themed", {}).get("name", key)
            seen[name] = components + [value["alpha"]]
        for name, body in route[mode].items():
            if "hex" not in body:
                continue
            expected = body["components"] if len(body["components"]) != 2 else [body["components"][0]] * 3 + [body["components"][1]]
            if seen.get(name) != expected:
                problems.append("%s: %s is %s, the route says %s" % (label, name, seen.get(name), expected))
        if set(seen) != set(n for n, b in route[mode].items() if "hex" in b):
            problems.append("%s: names differ from the route's" % label)


def check_android(base, theme, names, route, problems):
    for folder, mode in (("values", "light"), ("values-night", "dark")):
        label = "%s %s/colors.xml" % (theme, folder)
        text = requests.get("%s/themes/%s/exports/android/%s/colors.xml" % (base, theme, folder)).content
        try:
            root = ElementTree.fromstring(text)
        except ElementTree.ParseError as error:
            problems.append("%s: %s" % (label, error))
            continue
        values = {}
        for color in root.findall("color"):
            name = color.get("name")
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name or ""):
                problems.append("%s: %r is not an Android resource name" % (label, name))
            values[name] = color.text
        resources = export_names(names, android_name, lambda shared, n: "%s_%d" % (shared, n))
        for name, body in route[mode].items():
            hex_rgba = body.get("hex")
            if hex_rgba and values.get(resources[name]) != "#" + hex_rgba[7:9] + hex_rgba[1:7]:
                problems.append("%s: %s (%s) is %s, the route says %s" % (label, name, resources[name], values.get(resources[name]), hex_rgba))
        if len(root.findall("color")) != len([b for b in route[mode].values() if "hex" in b]):
            problems.append("%s: %d colours, the route has %d" % (label, len(root.findall("color")), len(route[mode])))


def check_swift(base, theme, work, problems):
    listing = requests.get("%s/themes/%s/exports" % (base, theme)).json()
    for file in listing["formats"]["swift"]:
        path = os.path.join(work, theme + "-" + file["path"])
        with open(path, "wb") as out:
            out.write(requests.get(base + file["href"]).content)
        result = subprocess.run(["swiftc", "-parse", path], capture_output=True, text=True)
        if result.returncode != 0:
            problems.append("%s %s: swiftc -parse: %s" % (theme, file["path"], result.stderr[:500]))


FRAMEWORK = "/usr/share/android-framework-res/framework-res.apk"
DENSITIES = {"mdpi": 1, "hdpi": 1.5, "xhdpi": 2, "xxhdpi": 3, "xxxhdpi": 4}


def png_size(path):
    with open(path, "rb") as file:
        head = file.read(24)
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def check_android_resources(theme, themed, themes, work, problems):
    """The whole resource folder through aapt; each drawable's width at its density."""
    if not shutil.which("aapt") or not os.path.exists(FRAMEWORK):
        problems.append("aapt or %s is missing (apt-get install aapt android-framework-res): the Android resource folder was not checked" % FRAMEWORK)
        return
    out = os.path.join(work, "android-res", theme)
    run = subprocess.run([themed, "export", theme, "--format", "android", "-o", out, "--themes", themes], capture_output=True, text=True)
    if run.returncode != 0:
        problems.append("%s: themed export --format android: %s" % (theme, run.stderr[:300]))
        return
    manifest = os.path.join(work, "AndroidManifest.xml")
    with open(manifest, "w") as file:
        file.write('<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="themed.check"/>\n')
    result = subprocess.run(["aapt", "package", "-f", "-M", manifest, "-S", out, "-I", FRAMEWORK, "-F", os.path.join(work, theme + ".apk")],
                            capture_output=True, text=True)
    if result.returncode != 0:
        problems.append("%s: aapt package refused the resource folder: %s" % (theme, result.stderr[:500]))
    # Every drawable at a density is its mdpi width times the density (within rounding).
    widths = {}
    for folder in os.listdir(out):
        if folder.startswith("drawable-"):
            density = folder.rsplit("-", 1)[1]
            for name in os.listdir(os.path.join(out, folder)):
                widths.setdefault((folder[:-len(density)], name), {})[density] = png_size(os.path.join(out, folder, name))[0]
    for (prefix, name), sizes in widths.items():
        if "mdpi" in sizes:
            for density, width in sizes.items():
                if abs(width - sizes["mdpi"] * DENSITIES[density]) > 1:
                    problems.append("%s %s%s/%s: %d px wide, expected %g" % (theme, prefix, density, name, width, sizes["mdpi"] * DENSITIES[density]))
    return len(widths)


def check_compose(base, themes_checked, route_by_theme, names_by_theme, work, problems):
    """Every theme's Compose file compiled in one kotlinc run against a stub of Color."""
    if not shutil.which("kotlinc"):
        problems.append("kotlinc is missing (apt-get install kotlin): the Compose export was not compiled")
        return
    folder = os.path.join(work, "compose")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "Color.kt"), "w") as file:
        file.write("package androidx.compose.ui.graphics\n\n// A stub of Compose's Color: the constructors the export calls.\n"
                   "class Color(val value: Long) {\n    constructor(value: Int) : this(value.toLong())\n}\n")
    for theme in themes_checked:
        listing = requests.get("%s/themes/%s/exports" % (base, theme)).json()
        for entry in listing["formats"]["compose"]:
            text = requests.get(base + entry["href"]).text
            with open(os.path.join(folder, theme + "-" + entry["path"]), "w") as out:
                out.write(text)
            values = dict(re.findall(r"val (\w+): Color = Color\(0x([0-9A-F]{8})\)", text.split("Colors {", 2)[1].split("}")[0]))
            kotlin = export_names(names_by_theme[theme], kotlin_name, lambda shared, n: "%s%d" % (shared, n))
            for name, body in route_by_theme[theme]["light"].items():
                hex_rgba = body.get("hex")
                if hex_rgba and values.get(kotlin[name]) != hex_rgba[7:9] + hex_rgba[1:7]:
                    problems.append("%s compose: %s (%s) is %s, the route says %s" % (theme, name, kotlin[name], values.get(kotlin[name]), hex_rgba))
    result = subprocess.run(["kotlinc"] + [os.path.join(folder, f) for f in sorted(os.listdir(folder))] + ["-d", os.path.join(work, "compose-classes")],
                            capture_output=True, text=True)
    if result.returncode != 0:
        problems.append("kotlinc refused the Compose exports: %s" % result.stderr[-800:])


def check_same_bytes(base, theme, themed, themes, work, problems):
    for format_name in ("css", "dtcg", "android", "swift", "compose"):
        out = os.path.join(work, "cli", theme, format_name)
        subprocess.run([themed, "export", theme, "--format", format_name, "-o", out, "--themes", themes],
                       check=True, capture_output=True)
        for directory, _, files in os.walk(out):
            for name in files:
                relative = os.path.relpath(os.path.join(directory, name), out)
                if format_name == "android" and not relative.endswith("colors.xml"):
                    continue  # drawables and strings: the CLI's resource folder only (checked by aapt)
                url = "%s/themes/%s/exports/%s/%s" % (base, theme, format_name, relative)
                first, second = requests.get(url).content, requests.get(url, headers={"Cache-Control": "no-cache"}).content
                with open(os.path.join(directory, name), "rb") as file:
                    if file.read() != first or first != second:
                        problems.append("%s %s/%s: the route and themed export differ" % (theme, format_name, relative))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="themed-exports-")
    themes = os.path.join(work, "themes")
    try:
        make_themes(themes)
        with LocalThemed(args.themed, work, themes) as server:
            check_all(server.base, args.themed, themes, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_all(base, themed, themes, work):
    """Every format of every theme, against the colour route; exits 1 on any problem."""
    problems = []
    checked = 0
    drawables = 0
    routes, all_names = {}, {}
    for theme in ("light", "dark", "brand", "awkward", "many"):
        names = requests.get("%s/themes/%s" % (base, theme)).json()["colors"]
        route = route_values(base, theme, names)
        routes[theme], all_names[theme] = route, names
        drawables += check_android_resources(theme, themed, themes, work, problems) or 0
        check_css(requests.get("%s/themes/%s/colors.css" % (base, theme)).text, theme, names, route, problems)
        check_tokens(base, theme, route, problems)
        check_android(base, theme, names, route, problems)
        check_swift(base, theme, work, problems)
        check_same_bytes(base, theme, themed, themes, work, problems)
        checked += len(names) * len(MODES)
    check_compose(base, list(routes), routes, all_names, work, problems)
    for problem in problems[:40]:
        print("  " + problem)
    if problems:
        sys.exit("exports: %d problems" % len(problems))
    print("exports: css, dtcg, android, swift and compose of 5 themes parse (aapt took every resource folder, %d drawables at "
          "their densities; kotlinc compiled the Compose files), and %d colour values equal the colour route" % (drawables, checked))


if __name__ == "__main__":
    main()
