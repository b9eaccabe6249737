"""The Swift export checked: `swiftc -parse`, and a token theme's values equal to /tokens'.
"""
import json
import math
import os
import re
import subprocess

import requests

from exports_shared import flatten_tokens, number
from exports_css import expected_css


def expected_swift(token_type, value, rgba):
    """The Swift literal of a resolved token in <Theme>Tokens.swift (points, seconds, CSS weights),
    from the spec's shapes; `rgba` writes a colour inside a composite (None: not known here)."""
    def pt(v):
        factor = {"px": 1, "rem": 16}.get(v["unit"])
        return number(v["value"] * factor) if factor else None
    seconds = lambda v: number(v["value"] * {"ms": 0.001, "s": 1}[v["unit"]]) if v["unit"] == "s" else number(v["value"] / 1000)
    literal = lambda text: json.dumps(text)
    bezier = lambda v: "CubicBezier(x1: %s, y1: %s, x2: %s, y2: %s)" % tuple(number(x) for x in v)
    if token_type == "dimension":
        return pt(value)
    if token_type == "number":
        return number(value)
    if token_type == "duration":
        return seconds(value)
    if token_type == "fontWeight":
        return expected_css("fontWeight", value, None)
    if token_type == "fontFamily":
        return "[%s]" % ", ".join(literal(n) for n in (value if isinstance(value, list) else [value]))
    if token_type == "strokeStyle":
        return literal(value) if isinstance(value, str) else None
    if token_type == "cubicBezier":
        return bezier(value)
    if token_type == "border":
        return "Border(width: %s, style: %s, color: %s)" % (pt(value["width"]), literal(value["style"]), rgba(value["color"]))
    if token_type == "shadow":
        layers = value if isinstance(value, list) else [value]
        return "[%s]" % ", ".join("Shadow(color: %s, x: %s, y: %s, blur: %s, spread: %s, inset: %s)" % (
            rgba(l["color"]), pt(l["offsetX"]), pt(l["offsetY"]), pt(l["blur"]), pt(l["spread"]), "true" if l.get("inset") else "false") for l in layers)
    if token_type == "transition":
        return "Transition(duration: %s, delay: %s, curve: %s)" % (seconds(value["duration"]), seconds(value["delay"]), bezier(value["timingFunction"]))
    if token_type == "typography":
        size = float(pt(value["fontSize"]))
        line = value["lineHeight"]
        line_height = number(math.floor(line * size * 100 + 0.5) / 100) if isinstance(line, (int, float)) else pt(line)
        families = value["fontFamily"] if isinstance(value["fontFamily"], list) else [value["fontFamily"]]
        return "TextStyle(families: [%s], size: %s, weight: %s, lineHeight: %s, letterSpacing: %s)" % (
            ", ".join(literal(n) for n in families), number(size), expected_css("fontWeight", value["fontWeight"], None), line_height,
            pt(value["letterSpacing"]))
    if token_type == "gradient":
        return "[%s]" % ", ".join("GradientStop(color: %s, location: %s)" % (rgba(stop["color"]), number(stop["position"])) for stop in value)
    return None


def check_typed_swift(base, work, problems):
    """The token theme's <Theme>Tokens.swift: it type-checks with swiftc on Linux (the values need
    only Foundation), and each value of the light and dark `Values` equals what /tokens makes."""
    path = os.path.join(work, "TypedTokens.swift")
    text = requests.get("%s/themes/typed/exports/swift/TypedTokens.swift" % base).text
    with open(path, "w") as out:
        out.write(text)
    result = subprocess.run(["swiftc", "-typecheck", path], capture_output=True, text=True)
    if result.returncode != 0:
        problems.append("typed TypedTokens.swift: swiftc -typecheck: %s" % result.stderr[:600])
    checked = 0
    for mode in ("light", "dark"):
        block = text.split("public static let %s = Values(\n" % mode, 1)[-1].split("\n    )\n", 1)[0]
        declared = dict(line.strip().rstrip(",").split(": ", 1) for line in block.split("\n") if ": " in line)

        def rgba(value, mode=mode):
            for name in ("ink", "haze"):
                token = requests.get("%s/themes/typed/tokens/%s?theme=%s" % (base, name, mode)).json()["$value"]
                if token == value:
                    components = requests.get("%s/themes/typed/colors/%s?appearance=%s" % (base, name, mode)).json()["components"]
                    return "RGBA(%s)" % ", ".join(repr(float(c)) if not float(c).is_integer() else str(int(c)) for c in components)
            return None
        document = requests.get("%s/themes/typed/tokens?theme=%s" % (base, mode)).json()
        for token_path, token in flatten_tokens(document):
            if token["$type"] == "color":
                continue
            name = re.sub(r"\.(\w)", lambda m: m.group(1).upper(), token_path)
            want = expected_swift(token["$type"], token["$value"], rgba)
            if want is None or "None" in want:
                # Not exported (a gradient, a dash array), or a colour written in place: named only.
                if want is None and name in declared:
                    problems.append("typed swift %s: %s is declared though Swift has no value for it" % (mode, name))
                continue
            if declared.get(name) != want:
                problems.append("typed swift %s: %s is %s, /tokens makes %s" % (mode, name, declared.get(name), want))
            checked += 1
    return checked


def check_swift(base, theme, work, problems):
    listing = requests.get("%s/themes/%s/exports" % (base, theme)).json()
    for file in listing["formats"]["swift"]:
        path = os.path.join(work, theme + "-" + file["path"])
        with open(path, "wb") as out:
            out.write(requests.get(base + file["href"]).content)
        result = subprocess.run(["swiftc", "-parse", path], capture_output=True, text=True)
        if result.returncode != 0:
            problems.append("%s %s: swiftc -parse: %s" % (theme, file["path"], result.stderr[:500]))
