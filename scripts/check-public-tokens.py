#!/usr/bin/env python3
"""Serves public design systems published in DTCG form and checks each colour against a reading
of the files made here, outside themed's code.

The design systems come from PyPI, pinned (downloaded once into var/public-tokens/, never kept in
the repository):

- SignalWire's design tokens, `signalwire-tokens.dtcg.json`, in signalwire-asset-builder 1.0.34
  and in signalwire-slide-builder 0.4.0 (MIT): a `shared` group and a `light` and a `dark` group
  of one file, written in the drafts' forms before 2025.10 (colours as hex strings, dimensions as
  "16px"), some values in CSS syntax no draft allows (`rgba(...)`, `clamp(...)`), some tokens
  without a type.

Each becomes a theme the way a team would serve it with the Resolver module: a resolver document
whose set is `#/shared` and whose `mode` modifier's contexts are `#/light` and `#/dark` (JSON
pointers into the published file, which is not changed), and a theme.json mapping the contexts to
appearances. The check reads the file itself (merges shared and each mode, follows aliases, takes
hex strings as sRGB) and asks:

- every colour token with a hex value answers the colour route in its appearance with that hex;
- every token this reading cannot give a value (a colour in CSS syntax, a token without a type,
  an alias of one of those) is in the theme's errors with its JSON pointer, and none other of
  its colour tokens is;
- `/themes/{t}/tokens?mode=...` serves each of those colours with its alias chain;
- `themed compile` writes the theme's colours as a catalog that themed reads back, with every one.

    python3 scripts/check-public-tokens.py --themed .build/release/themed
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

import requests

from local_themed import LocalThemed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, "var", "public-tokens")
SYSTEMS = [
    # (theme name, PyPI package, version, the file in its wheel)
    ("signalwire-assets", "signalwire-asset-builder", "1.0.34", "signalwire_assets/assets/signalwire-tokens.dtcg.json"),
    ("signalwire-slides", "signalwire-slide-builder", "0.4.0", "signalwire_slides/assets/signalwire-tokens.dtcg.json"),
]
MODES = ("light", "dark")
HEX = re.compile(r"^#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
ALIAS = re.compile(r"^\{([^{}]+)\}$")


def fetch(package, version, member):
    """The design system's file, from the pinned wheel (downloaded into var/ once)."""
    os.makedirs(CACHE, exist_ok=True)
    wheels = [name for name in os.listdir(CACHE) if name.startswith(package.replace("-", "_") + "-" + version + "-")]
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", CACHE, "%s==%s" % (package, version)], check=True)
        wheels = [name for name in os.listdir(CACHE) if name.startswith(package.replace("-", "_") + "-" + version + "-")]
    with zipfile.ZipFile(os.path.join(CACHE, wheels[0])) as wheel:
        return wheel.read(member)


def tokens(group, path=(), inherited=None):
    """Every token of a group: its path, its $type (own or a group's above) and its $value."""
    kind = group.get("$type", inherited)
    for name, member in group.items():
        if name.startswith("$") or not isinstance(member, dict):
            continue
        if "$value" in member:
            yield path + (name,), member.get("$type", kind), member["$value"]
        else:
            yield from tokens(member, path + (name,), kind)


def css_hex(text):
    """#RRGGBBAA of a colour CSS Color 4 writes in text, in sRGB; None when it names none (or lies
    outside sRGB, where the hex would be a gamut mapping's)."""
    from coloraide import Color
    try:
        color = Color(text.strip())
    except Exception:
        return None
    srgb = color.convert("srgb")
    if not srgb.in_gamut():
        return None
    channels = [0 if v != v else v for v in srgb.coords()] + [srgb.alpha()]
    return "#" + "".join("%02X" % round(min(max(v, 0), 1) * 255) for v in channels)


def expected_colors(document, mode):
    """The colour tokens of shared + mode as this reading resolves them: path -> hex (#RRGGBBAA),
    and the paths of tokens it cannot give a value, with where each is written."""
    written = {}
    for part in ("shared", mode):
        for path, kind, value in tokens(document[part]):
            written[".".join(path)] = (kind, value, "#/%s/%s" % (part, "/".join(path)))
    resolved, unresolvable = {}, {}

    def resolve(name, seen=()):
        if name in resolved or name in unresolvable:
            return resolved.get(name)
        kind, value, pointer = written[name]
        match = ALIAS.match(value) if isinstance(value, str) else None
        if match:
            target = match.group(1)
            if target not in written or target in seen or resolve(target, seen + (name,)) is None:
                unresolvable[name] = pointer
                return None
            kind = kind or resolved[target][0]
            resolved[name] = (kind, resolved[target][1])
            return resolved[name]
        if kind is None:
            unresolvable[name] = pointer
            return None
        if kind == "color":
            if isinstance(value, str) and not HEX.match(value):
                # A colour as CSS writes it (rgba(), hsl(), a name): served, read as CSS Color 4
                # reads it (coloraide, a reading outside themed's code).
                value = css_hex(value)
                if value is None:
                    unresolvable[name] = pointer
                    return None
                resolved[name] = (kind, value)
                return resolved[name]
            if not (isinstance(value, str) and HEX.match(value)):
                unresolvable[name] = pointer
                return None
            digits = value[1:]
            if len(digits) <= 4:
                digits = "".join(character * 2 for character in digits)
            value = "#" + (digits + "ff")[:8].upper()
        resolved[name] = (kind, value)
        return resolved[name]

    for name in written:
        resolve(name)
    colors = {name: value for name, (kind, value) in resolved.items() if kind == "color"}
    unresolved_colors = {name: pointer for name, pointer in unresolvable.items() if written[name][0] in ("color", None)}
    return colors, unresolved_colors


def make_theme(themes, theme, document_bytes):
    folder = os.path.join(themes, theme)
    os.makedirs(folder)
    with open(os.path.join(folder, "design-system.json"), "wb") as file:
        file.write(document_bytes)
    resolver = {
        "version": "2025.10",
        "sets": {"shared": {"sources": [{"$ref": "design-system.json#/shared"}]}},
        "modifiers": {"mode": {"contexts": {mode: [{"$ref": "design-system.json#/%s" % mode}] for mode in MODES}, "default": "light"}},
        "resolutionOrder": [{"$ref": "#/sets/shared"}, {"$ref": "#/modifiers/mode"}],
    }
    with open(os.path.join(folder, "design-system.resolver.json"), "w") as file:
        json.dump(resolver, file, indent=2)
    with open(os.path.join(folder, "theme.json"), "w") as file:
        json.dump({"traits": {"mode": {mode: {"appearance": mode} for mode in MODES}}}, file)
    return folder


def check_theme(base, theme, document, themed, folder, work, problems):
    info = requests.get("%s/themes/%s" % (base, theme)).json()
    # The detail names the first 50 of each; /problems has them all.
    for severity in ("error", "warning"):
        lines, page = [], "/themes/%s/problems?severity=%s&limit=1000" % (theme, severity)
        while page:
            answer = requests.get(base + page).json()
            lines += [problem["message"] for problem in answer["problems"]]
            page = answer["next"]
        if len(lines) != info["%sCount" % severity]:
            problems.append("%s: /problems gives %d %ss, the detail counts %d" % (theme, len(lines), severity, info["%sCount" % severity]))
        info[severity + "s"] = lines
    errors = "\n".join(info.get("errors", []))
    served = set(info.get("colors", []))
    counts = {"colors": 0, "refused": 0}
    for mode in MODES:
        colors, unresolved = expected_colors(document, mode)
        for name, hex_value in sorted(colors.items()):
            answer = requests.get("%s/themes/%s/colors/%s?appearance=%s" % (base, theme, name, mode))
            if answer.status_code != 200:
                problems.append("%s %s %s: %d %s" % (theme, mode, name, answer.status_code, answer.text[:200]))
                continue
            if answer.json().get("hex", "").upper() != hex_value:
                problems.append("%s %s %s: served %s, the file says %s" % (theme, mode, name, answer.json().get("hex"), hex_value))
            counts["colors"] += 1
        for name, pointer in sorted(unresolved.items()):
            if "design-system.json%s:" % pointer not in errors:
                problems.append("%s %s: %s (%s) has no value this reading can give, and is not among the theme's errors" % (theme, mode, name, pointer))
            if name in colors:
                problems.append("%s %s: %s both resolved and not" % (theme, mode, name))
            counts["refused"] += 1
        # The tokens route: each colour with its value, aliases named.
        resolution = requests.get("%s/themes/%s/tokens?mode=%s" % (base, theme, mode))
        if resolution.status_code != 200:
            problems.append("%s tokens?mode=%s: %d" % (theme, mode, resolution.status_code))
            continue
        for name in colors:
            node = resolution.json()
            for segment in name.split("."):
                node = node.get(segment, {}) if isinstance(node, dict) else {}
            if node.get("$type") != "color" or "components" not in node.get("$value", {}):
                problems.append("%s tokens?mode=%s: %s is not a colour token there: %s" % (theme, mode, name, json.dumps(node)[:200]))
    for line in info.get("errors", []):
        # Every error names a token this reading also could not resolve (colour or not).
        if not line.startswith("design-system.json#/"):
            problems.append("%s: an error not about a token: %s" % (theme, line))
    # What was served though the Format module does not allow it (the file's hex strings and
    # "16px"), one line per kind and file, each naming a token.
    counts["warnings"] = len(info.get("warnings", []))
    for line in info.get("warnings", []):
        if not re.match(r"design-system\.json#/\S+: .* \((draft-form|unit|hex-fallback|token-group|format|css-form|studio-keys|studio-folder|beside-value)\)", line):
            problems.append("%s: a warning not about a token, or of no known kind: %s" % (theme, line))
    # Compiled to a catalog, read back by themed: every colour the theme serves is in it.
    catalog = os.path.join(work, theme + ".car")
    compiled = subprocess.run([themed, "compile", folder, "-o", catalog, "--allow-errors"], capture_output=True, text=True)
    if compiled.returncode != 0:
        problems.append("%s: themed compile failed: %s" % (theme, compiled.stderr[-500:]))
    else:
        report = subprocess.run([themed, "inspect", catalog, "--json"], capture_output=True, text=True)
        entries = json.loads(report.stdout)[1:] if report.returncode == 0 else []
        names = {entry.get("Name") for entry in entries if entry.get("AssetType") == "Color"}
        missing = sorted(served - names)
        if report.returncode != 0 or missing:
            problems.append("%s: the compiled catalog lacks %d colours (%s)%s" % (theme, len(missing), ", ".join(missing[:5]), report.stderr[-300:]))
    return counts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="themed-public-tokens-")
    try:
        themes = os.path.join(work, "themes")
        documents, folders = {}, {}
        for theme, package, version, member in SYSTEMS:
            data = fetch(package, version, member)
            documents[theme] = json.loads(data)
            folders[theme] = make_theme(themes, theme, data)
        problems = []
        with LocalThemed(args.themed, work, themes) as server:
            for theme, package, version, _ in SYSTEMS:
                counts = check_theme(server.base, theme, documents[theme], args.themed, folders[theme], work, problems)
                print("%s (%s %s): %d colours served as the file gives them, %d tokens refused with their pointer, %d warning lines"
                      % (theme, package, version, counts["colors"], counts["refused"], counts["warnings"]))
        for problem in problems:
            print(problem)
        print("public design systems: %d checked, %d problems" % (len(SYSTEMS), len(problems)))
        sys.exit(1 if problems else 0)
    finally:
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
