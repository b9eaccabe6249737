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
- the route's bytes equal `themed export`'s, and a second request gives the same bytes;
- `typed`, a token theme with every DTCG type (aliases, a `theme` modifier mapped to dark):
  its colors.css declares each token that is not a colour as the CSS value the spec's shape
  makes (written here from the spec, not from themed's code) of `/tokens` at each scheme's
  context, restated under dark only where it differs; typography also as classes; aliases as
  `var()` with `?references=1`; a dash-array stroke and a gradient listed, not declared; its
  Android dimens.xml, integers.xml and styles.xml (values-night/ only what differs) equal what
  /tokens makes in Android's units, and aapt takes the folder.

What cannot run (no kotlinc, no aapt) is said, and fails the check: `make test` installs both.

    python3 scripts/check-exports.py --themed .build/release/themed
"""
import argparse
import http.client
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import xml.etree.ElementTree as ElementTree

import requests
import tinycss2

from local_themed import LocalThemed
from sample_themes import SAMPLE_BUILDS

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
    shutil.copytree(os.path.join(ROOT, "themes"), themes, ignore=SAMPLE_BUILDS)
    awkward = os.path.join(themes, "awkward", "Theme.xcassets")
    for index, name in enumerate(AWKWARD_NAMES):
        # Names with `/` would be folders; the others are kept as the colour's name.
        variants = [("dark", (index / 20, 0.5, 0.25))] if index % 2 else [(None, (0.1, index / 20, 0.3)), ("dark", (0.9, 0.2, index / 20))]
        color_set(awkward, name, variants)
    make_typed_theme(os.path.join(themes, "typed"))
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


# A token theme with every DTCG type, some written in each of their forms, aliases between
# them, and a `theme` modifier mapped to appearance whose dark context changes a few.
TYPED_TOKENS = {
    "space": {"$type": "dimension", "sm": {"$value": {"value": 4, "unit": "px"}}, "lg": {"$value": {"value": 1.5, "unit": "rem"}},
              "gap": {"$value": "{space.sm}"}},
    "ratio": {"$type": "number", "golden": {"$value": 1.618}, "whole": {"$value": 2}},
    "motion": {
        "fast": {"$type": "duration", "$value": {"value": 150, "unit": "ms"}},
        "slow": {"$type": "duration", "$value": {"value": 0.5, "unit": "s"}},
        "ease": {"$type": "cubicBezier", "$value": [0.2, 0, 0, 1]},
        "fade": {"$type": "transition", "$value": {"duration": "{motion.fast}", "delay": {"value": 0, "unit": "ms"}, "timingFunction": "{motion.ease}"}},
    },
    "font": {
        "body": {"$type": "fontFamily", "$value": ["Inter", "Helvetica Neue", "sans-serif"]},
        "mono": {"$type": "fontFamily", "$value": "JetBrains Mono"},
        "regular": {"$type": "fontWeight", "$value": "regular"},
        "semibold": {"$type": "fontWeight", "$value": "semi-bold"},
        "heavy": {"$type": "fontWeight", "$value": 850},
    },
    "ink": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0.1, 0.2, 0.3], "alpha": 1, "hex": "#1a334d"}},
    "haze": {"$type": "color", "$value": {"colorSpace": "oklch", "components": [0.7, 0.1, 200], "alpha": 0.5}},
    "line": {
        "solid": {"$type": "strokeStyle", "$value": "dashed"},
        "dashes": {"$type": "strokeStyle", "$value": {"dashArray": [{"value": 2, "unit": "px"}], "lineCap": "round"}},
        "card": {"$type": "border", "$value": {"color": "{ink}", "width": {"value": 1, "unit": "px"}, "style": "solid"}},
    },
    "elevation": {
        "one": {"$type": "shadow", "$value": {"color": "{haze}", "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 2, "unit": "px"},
                                              "blur": {"value": 4, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}},
        "two": {"$type": "shadow", "$value": [
            {"color": "{ink}", "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 1, "unit": "px"}, "blur": {"value": 2, "unit": "px"},
             "spread": {"value": 0, "unit": "px"}, "inset": True},
            {"color": {"colorSpace": "display-p3", "components": [0.9, 0.2, 0.1], "alpha": 0.25}, "offsetX": {"value": 0, "unit": "px"},
             "offsetY": {"value": 8, "unit": "px"}, "blur": {"value": 16, "unit": "px"}, "spread": {"value": -4, "unit": "px"}}]},
    },
    "fade": {"$type": "gradient", "$value": [{"color": "{ink}", "position": 0}, {"color": "{haze}", "position": 1}]},
    "type": {
        "body": {"$type": "typography", "$value": {"fontFamily": "{font.body}", "fontSize": {"value": 16, "unit": "px"}, "fontWeight": "{font.regular}",
                                                    "letterSpacing": {"value": 0.5, "unit": "px"}, "lineHeight": 1.5}},
        "caption": {"$type": "typography", "$value": {"fontFamily": "{font.mono}", "fontSize": {"value": 12, "unit": "px"}, "fontWeight": 400,
                                                       "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.2}},
    },
}
TYPED_DARK = {"space": {"lg": {"$value": {"value": 2, "unit": "rem"}}},
              "type": {"body": {"$type": "typography", "$value": {"fontFamily": "{font.body}", "fontSize": {"value": 17, "unit": "px"}, "fontWeight": "{font.semibold}",
                                           "letterSpacing": {"value": 0.5, "unit": "px"}, "lineHeight": 1.5}}}}


def make_typed_theme(folder):
    os.makedirs(folder)
    files = {"base.tokens.json": TYPED_TOKENS, "dark.json": TYPED_DARK, "light.json": {},
             "tokens.resolver.json": {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
                                      "modifiers": {"theme": {"contexts": {"light": [{"$ref": "light.json"}], "dark": [{"$ref": "dark.json"}]},
                                                              "default": "light"}},
                                      "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]},
             "theme.json": {"traits": {"theme": {"light": {"appearance": "light"}, "dark": {"appearance": "dark"}}}}}
    for name, document in files.items():
        with open(os.path.join(folder, name), "w") as file:
            json.dump(document, file)


def number(value):
    """As CSS is written here: whole numbers without a fraction, others shortest."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


GENERIC_FAMILIES = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif", "ui-sans-serif", "ui-monospace",
                    "ui-rounded", "math", "emoji", "fangsong"}
WEIGHTS = {"thin": 100, "hairline": 100, "extralight": 200, "ultralight": 200, "light": 300, "normal": 400, "regular": 400, "book": 400,
           "medium": 500, "semibold": 600, "demibold": 600, "bold": 700, "extrabold": 800, "ultrabold": 800, "black": 900, "heavy": 900,
           "extrablack": 950, "ultrablack": 950}


def expected_css(token_type, value, route_color):
    """The CSS value the export must write for a resolved token, from the DTCG spec's shapes and
    CSS's grammar (written here from those, not from themed's code); None where CSS has none.
    `route_color` turns a colour value into what colors.css writes for it."""
    measure = lambda v: number(v["value"]) + v["unit"]
    if token_type in ("dimension", "duration"):
        return measure(value)
    if token_type == "number":
        return number(value)
    if token_type == "fontFamily":
        names = value if isinstance(value, list) else [value]
        return ", ".join(n if n in GENERIC_FAMILIES or re.fullmatch(r"[A-Za-z][A-Za-z0-9-]*", n) else '"%s"' % n for n in names)
    if token_type == "fontWeight":
        return str(value) if isinstance(value, int) else str(WEIGHTS[re.sub(r"[^a-z]", "", value.lower())])
    if token_type == "cubicBezier":
        return "cubic-bezier(%s)" % ", ".join(number(v) for v in value)
    if token_type == "strokeStyle":
        return value if isinstance(value, str) else None
    if token_type == "border":
        return "%s %s %s" % (measure(value["width"]), value["style"], route_color(value["color"]))
    if token_type == "shadow":
        layers = value if isinstance(value, list) else [value]
        return ", ".join(("inset " if layer.get("inset") else "") + "%s %s %s %s %s" % (
            measure(layer["offsetX"]), measure(layer["offsetY"]), measure(layer["blur"]), measure(layer["spread"]), route_color(layer["color"]))
            for layer in layers)
    if token_type == "transition":
        return "%s %s %s" % (measure(value["duration"]), expected_css("cubicBezier", value["timingFunction"], route_color), measure(value["delay"]))
    if token_type == "gradient":
        return "linear-gradient(%s)" % ", ".join("%s %s%%" % (route_color(stop["color"]), number(round(stop["position"] * 100, 4))) for stop in value)
    if token_type == "typography":
        line_height = number(value["lineHeight"]) if isinstance(value["lineHeight"], (int, float)) else measure(value["lineHeight"])
        return "%s %s/%s %s" % (expected_css("fontWeight", value["fontWeight"], route_color), measure(value["fontSize"]), line_height,
                                expected_css("fontFamily", value["fontFamily"], route_color))
    return None


def flatten_tokens(document, path=()):
    for key, value in document.items():
        if key.startswith("$") or not isinstance(value, dict):
            continue
        if "$value" in value:
            yield ".".join(path + (key,)), value
        else:
            yield from flatten_tokens(value, path + (key,))


def check_typed_css(base, problems):
    """colors.css of the token theme `typed`: every token's custom property in light and dark
    (read with tinycss2, the cascade as a browser applies it) equals what the DTCG value of
    `/tokens` at that mode's context makes; typography as classes; aliases as var() when asked."""
    label = "typed colors.css"
    errors = requests.get("%s/themes/typed" % base).json()["errors"]
    if errors:
        problems.append("typed: the theme has errors, so the check reads less than it should: %s" % errors[:3])
    text = requests.get("%s/themes/typed/colors.css" % base).text
    effective = css_effective(text, problems, label)
    # A colour inside a composite token is written as the colour route writes the colour token
    # it names, or for one written in place, as a colour token of the same value would be.
    colors = {mode: {} for mode in MODES}
    for mode, query in MODES.items():
        for name in ("ink", "haze"):
            body = requests.get("%s/themes/typed/colors/%s?%s" % (base, name, query)).json()
            colors[mode][json.dumps(requests.get("%s/themes/typed/tokens/%s?theme=%s" % (base, name, "dark" if mode.startswith("dark") else "light")).json()["$value"], sort_keys=True)] = body["css"]
    wanted = {}
    for mode in ("light", "dark"):
        document = requests.get("%s/themes/typed/tokens?theme=%s" % (base, mode)).json()

        def route_color(value, mode=mode):
            known = colors[mode].get(json.dumps(value, sort_keys=True))
            if known is None and value.get("colorSpace") == "display-p3":
                known = "color(display-p3 %s / %s)" % (" ".join(number(c) for c in value["components"]), number(value.get("alpha", 1)))
            return known
        wanted[mode] = {"--" + path.replace(".", "-").lower(): expected_css(token["$type"], token["$value"], route_color)
                        for path, token in flatten_tokens(document) if token["$type"] != "color"}
    checked = 0
    for mode in ("light", "dark"):
        values, forced = effective[mode]
        for prop, want in wanted[mode].items():
            # A scheme forced by data-theme restates what differs between the schemes; the rest
            # is inherited from :root, the same in both.
            differs = wanted["light"][prop] != wanted["dark"][prop]
            got_forced = forced.get(prop) if differs else forced.get(prop, values.get(prop))
            if values.get(prop) != want or got_forced != want:
                problems.append("%s: %s in %s is %s (forced %s), /tokens makes %s" % (label, prop, mode, values.get(prop), got_forced, want))
            checked += 1
    if wanted["light"]["--space-lg"] == wanted["dark"]["--space-lg"]:
        problems.append("%s: the dark context's own space.lg did not reach /tokens" % label)
    classes = {selector: declarations for conditions, selector, declarations in css_blocks(text) if selector.startswith(".") and not conditions}
    dark_classes = {selector: declarations for conditions, selector, declarations in css_blocks(text)
                    if selector.startswith(".") and conditions == ["@media (prefers-color-scheme: dark)"]}
    light = requests.get("%s/themes/typed/tokens?theme=light" % base).json()["type"]
    dark = requests.get("%s/themes/typed/tokens?theme=dark" % base).json()["type"]
    for name in ("body", "caption"):
        want = expected_css("typography", light[name]["$value"], None)
        got = classes.get(".type-" + name, {})
        if got.get("font") != want or got.get("letter-spacing") != number(light[name]["$value"]["letterSpacing"]["value"]) + "px":
            problems.append("%s: .type-%s is %s, /tokens makes font %s" % (label, name, got, want))
    if dark_classes.get(".type-body", {}).get("font") != expected_css("typography", dark["body"]["$value"], None) or ".type-caption" in dark_classes:
        problems.append("%s: the dark typography classes are %s" % (label, dark_classes))
    forced = {selector: declarations for conditions, selector, declarations in css_blocks(text) if selector.startswith("[data-theme") and " ." in selector}
    if (forced.get('[data-theme="dark"] .type-body', {}).get("font") != expected_css("typography", dark["body"]["$value"], None)
            or forced.get('[data-theme="light"] .type-body', {}).get("font") != expected_css("typography", light["body"]["$value"], None)):
        problems.append("%s: a scheme forced by data-theme does not reach the typography classes: %s" % (label, forced))
    if "line.dashes" not in text.split("*/")[0] or "--line-dashes" in text:
        problems.append("%s: a dash-array stroke is to be listed as not exported, not declared" % label)
    referenced = css_effective(requests.get("%s/themes/typed/colors.css?references=1" % base).text, problems, label + " references")["light"][0]
    for prop, want in (("--space-gap", "var(--space-sm)"), ("--line-card", None)):
        if want and referenced.get(prop) != want:
            problems.append("%s: with references=1 %s is %s, not %s" % (label, prop, referenced.get(prop), want))
    return checked


def expected_android(token_type, value):
    """(element, value) the Android resources must hold for a resolved token, from Android's
    units (dp, sp, ems, milliseconds) as their documentation gives them; None where none fits."""
    def dp(v):
        return {"px": 1, "rem": 16}.get(v["unit"]) and number(v["value"] * {"px": 1, "rem": 16}[v["unit"]])
    if token_type == "dimension":
        return ("dimen", dp(value) + "dp") if dp(value) else None
    if token_type == "number":
        return ("integer", str(int(value))) if float(value).is_integer() else ("float", number(value))
    if token_type == "duration":
        ms = value["value"] * {"ms": 1, "s": 1000}[value["unit"]]
        return ("integer", str(int(ms))) if float(ms).is_integer() else None
    if token_type == "fontWeight":
        return ("integer", expected_css("fontWeight", value, None))
    if token_type == "typography":
        size = float(dp(value["fontSize"]))
        items = {"android:textSize": number(size) + "sp", "android:textFontWeight": expected_css("fontWeight", value["fontWeight"], None)}
        line = value["lineHeight"]
        items["android:lineHeight"] = number(round(line * size * 100) / 100) + "sp" if isinstance(line, (int, float)) else dp(line) + "sp"
        # To four places, a half away from zero (0.03125 is 0.0313).
        items["android:letterSpacing"] = number(math.floor(float(dp(value["letterSpacing"])) / size * 10000 + 0.5) / 10000)
        families = value["fontFamily"] if isinstance(value["fontFamily"], list) else [value["fontFamily"]]
        items["android:fontFamily"] = families[0]
        return ("style", items)
    return None


def check_typed_android(base, problems):
    """The token theme's dimens.xml, integers.xml and styles.xml (values/ and values-night/), read
    with an XML parser, against /tokens in light and dark; aapt takes the folder (check_android_resources)."""
    checked = 0
    documents = {mode: requests.get("%s/themes/typed/tokens?theme=%s" % (base, mode)).json() for mode in ("light", "dark")}
    wanted = {mode: {path: expected_android(token["$type"], token["$value"]) for path, token in flatten_tokens(documents[mode])
                     if token["$type"] != "color"} for mode in documents}
    for folder, mode in (("values", "light"), ("values-night", "dark")):
        found = {}
        for file in ("dimens.xml", "integers.xml", "styles.xml"):
            response = requests.get("%s/themes/typed/exports/android/%s/%s" % (base, folder, file))
            if response.status_code != 200:
                continue
            for element in ElementTree.fromstring(response.content):
                name = element.get("name")
                if element.tag == "style":
                    found[name[len("TextAppearance.Themed."):]] = ("style", {item.get("name"): item.text for item in element})
                elif element.tag == "item":
                    found[name] = (element.get("format"), element.text)
                else:
                    found[name] = (element.tag, element.text)
        for path, want in wanted[mode].items():
            name = path.replace(".", "_").lower()
            # values-night/ holds only what differs in dark; the rest comes from values/.
            if mode == "dark" and want == wanted["light"][path]:
                if name in found:
                    problems.append("typed android %s: %s is restated though it does not differ" % (folder, name))
                continue
            if found.get(name) != want:
                problems.append("typed android %s: %s is %s, /tokens makes %s" % (folder, name, found.get(name), want))
            checked += 1
    # The gradient `fade` (ink to haze) is a shape drawable whose ends are the colour route's colours.
    for folder, mode in (("drawable", "light"), ("drawable-night", "dark")):
        response = requests.get("%s/themes/typed/exports/android/%s/fade.xml" % (base, folder))
        ends = [requests.get("%s/themes/typed/colors/%s?appearance=%s" % (base, name, mode)).json()["hex"] for name in ("ink", "haze")]
        argb = ["#" + hex[7:9] + hex[1:7] for hex in ends]
        gradient = ElementTree.fromstring(response.content).find("gradient") if response.status_code == 200 else None
        android = "{http://schemas.android.com/apk/res/android}"
        got = [gradient.get(android + "startColor"), gradient.get(android + "endColor")] if gradient is not None else None
        if mode == "dark" and response.status_code == 404 and ends == [requests.get("%s/themes/typed/colors/%s?appearance=light" % (base, name)).json()["hex"] for name in ("ink", "haze")]:
            continue  # the same in dark: drawable/ serves both
        if got != argb:
            problems.append("typed android %s/fade.xml: the gradient runs %s, the colour route makes %s" % (folder, got, argb))
        checked += 1
    return checked


COMPOSE_STUBS = {
    "ui/unit/Unit.kt": """package androidx.compose.ui.unit
// Stubs of Compose's units: the types and extensions the exports use, with Compose's signatures.
class Dp(val value: Float) { operator fun unaryMinus() = Dp(-value) }
val Int.dp: Dp get() = Dp(toFloat())
val Double.dp: Dp get() = Dp(toFloat())
class TextUnit(val value: Float, val type: Int) { operator fun unaryMinus() = TextUnit(-value, type) }
val Int.sp: TextUnit get() = TextUnit(toFloat(), 1)
val Double.sp: TextUnit get() = TextUnit(toFloat(), 1)
val Int.em: TextUnit get() = TextUnit(toFloat(), 2)
val Double.em: TextUnit get() = TextUnit(toFloat(), 2)
""",
    "ui/text/TextStyle.kt": """package androidx.compose.ui.text
import androidx.compose.ui.text.font.FontFamily
import androidx.compose.ui.text.font.FontWeight
import androidx.compose.ui.unit.TextUnit
class TextStyle(val fontFamily: FontFamily? = null, val fontSize: TextUnit? = null, val fontWeight: FontWeight? = null,
                val lineHeight: TextUnit? = null, val letterSpacing: TextUnit? = null)
""",
    "ui/text/font/Font.kt": """package androidx.compose.ui.text.font
class FontWeight(val weight: Int)
open class FontFamily {
    companion object { val Default = FontFamily(); val SansSerif = FontFamily(); val Serif = FontFamily(); val Monospace = FontFamily(); val Cursive = FontFamily() }
}
""",
    "ui/graphics/Shadow.kt": """package androidx.compose.ui.graphics
import androidx.compose.ui.geometry.Offset
class Shadow(val color: Color, val offset: Offset, val blurRadius: Float)
""",
    "ui/geometry/Offset.kt": "package androidx.compose.ui.geometry\nclass Offset(val x: Float, val y: Float)\n",
    "ui/graphics/Brush.kt": """package androidx.compose.ui.graphics
abstract class Brush {
    companion object { fun verticalGradient(vararg colorStops: Pair<Float, Color>): Brush = object : Brush() {} }
}
""",
    "animation/core/Easing.kt": "package androidx.compose.animation.core\nclass CubicBezierEasing(val a: Float, val b: Float, val c: Float, val d: Float)\n",
}


def expected_kotlin(token_type, value):
    """(Kotlin type, value) of a resolved token in the Compose export, from Compose's types and
    units; None where Compose has no type for it."""
    def dp(v):
        factor = {"px": 1, "rem": 16}.get(v["unit"])
        return number(v["value"] * factor) if factor else None
    kfloat = lambda v: number(v) + "f"
    generic = {"sans-serif": "SansSerif", "serif": "Serif", "monospace": "Monospace", "cursive": "Cursive", "system-ui": "Default",
               "ui-sans-serif": "SansSerif", "ui-serif": "Serif", "ui-monospace": "Monospace"}
    family = lambda v: next((generic[n] for n in (v if isinstance(v, list) else [v]) if n in generic), None)
    if token_type == "dimension":
        return ("Dp", dp(value) + ".dp") if dp(value) else None
    if token_type == "number":
        return ("Int", str(int(value))) if float(value).is_integer() else ("Float", kfloat(value))
    if token_type == "duration":
        return ("Int", str(int(value["value"] * {"ms": 1, "s": 1000}[value["unit"]])))
    if token_type == "fontWeight":
        return ("FontWeight", "FontWeight(%s)" % expected_css("fontWeight", value, None))
    if token_type == "cubicBezier":
        return ("CubicBezierEasing", "CubicBezierEasing(%s)" % ", ".join(kfloat(v) for v in value))
    if token_type == "fontFamily":
        return ("FontFamily", "FontFamily." + family(value)) if family(value) else None
    if token_type == "typography":
        arguments = []
        if family(value["fontFamily"]):
            arguments.append("fontFamily = FontFamily." + family(value["fontFamily"]))
        arguments.append("fontSize = %s.sp" % dp(value["fontSize"]))
        arguments.append("fontWeight = FontWeight(%s)" % expected_css("fontWeight", value["fontWeight"], None))
        line = value["lineHeight"]
        arguments.append("lineHeight = %s" % (number(line) + ".em" if isinstance(line, (int, float)) else dp(line) + ".sp"))
        arguments.append("letterSpacing = %s.sp" % dp(value["letterSpacing"]))
        return ("TextStyle", "TextStyle(%s)" % ", ".join(arguments))
    if token_type == "shadow":
        layers = value if isinstance(value, list) else [value]
        if len(layers) != 1 or layers[0].get("inset") or dp(layers[0]["spread"]) != "0":
            return None
        return ("Shadow", None)  # the colour is compared through the colour route below
    if token_type == "gradient":
        return ("Brush", None, r"Brush\.verticalGradient\(%s\)" % ", ".join(r"%s to Color\(0x[0-9A-F]{8}\)" % re.escape(kfloat(stop["position"])) for stop in value))
    return None


def check_typed_compose(base, work, folder, problems):
    """The token theme's Compose tokens: every value against what /tokens makes in Compose's types;
    the file goes into the one kotlinc run of check_compose (with stubs of the types it uses)."""
    checked = 0
    listing = requests.get("%s/themes/typed/exports" % base).json()["formats"]["compose"]
    paths = [entry["path"] for entry in listing]
    if paths != ["TypedColorScheme.kt", "TypedTokens.kt"]:
        problems.append("typed compose: the listing has %s" % paths)
        return 0
    text = requests.get("%s/themes/typed/exports/compose/TypedTokens.kt" % base).text
    with open(os.path.join(folder, "typed-TypedTokens.kt"), "w") as out:
        out.write(text)
    for stub, contents in COMPOSE_STUBS.items():
        with open(os.path.join(folder, "stub-" + stub.replace("/", "-")), "w") as out:
            out.write(contents)
    objects = dict(re.findall(r"object Typed(Light|Dark)Tokens \{(.*?)\n\}", text, re.S))
    for mode in ("light", "dark"):
        document = requests.get("%s/themes/typed/tokens?theme=%s" % (base, mode)).json()
        declared = {name: (kind, value) for name, kind, value in re.findall(r"val (\w+): (\w+) = (.*)", objects.get(mode.title(), ""))}
        for path, token in flatten_tokens(document):
            if token["$type"] == "color":
                continue
            want = expected_kotlin(token["$type"], token["$value"])
            name = re.sub(r"\.(\w)", lambda m: m.group(1).upper(), path)
            got = declared.get(name)
            if want and want[0] == "Brush":
                # A gradient: its stops at their positions (the colours are the route's, as a shadow's).
                if got is None or got[0] != "Brush" or not re.fullmatch(want[2], got[1]):
                    problems.append("typed compose %s: %s is %s, /tokens makes %s" % (mode, name, got, want[2]))
            elif want and want[1] is None:
                # A shadow: its colour as the colour route's hex of the same colour in sRGB.
                got_ok = got is not None and got[0] == "Shadow" and re.fullmatch(r"Shadow\(color = Color\(0x[0-9A-F]{8}\), offset = Offset\(-?[\d.]+f, -?[\d.]+f\), blurRadius = [\d.]+f\)", got[1])
                if not got_ok:
                    problems.append("typed compose %s: %s is %s" % (mode, name, got))
            elif got != want:
                problems.append("typed compose %s: %s is %s, /tokens makes %s" % (mode, name, got, want))
            checked += 1
    haze = requests.get("%s/themes/typed/colors/haze?appearance=light" % base).json()["hex"]
    if "Shadow(color = Color(0x%s), offset = Offset(0f, 2f), blurRadius = 4f)" % (haze[7:9] + haze[1:7]) not in objects.get("Light", ""):
        problems.append("typed compose: elevation.one is not the Shadow of haze (%s) at 0, 2, blur 4" % haze)
    return checked


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


DTCG_REFERENCE = os.path.join(ROOT, "..", "shared", "tools", "dtcg_ref.py")


def check_typed_dtcg(base, work, problems):
    """The token theme's DTCG export keeps its groups and aliases: each mode's file, read by the
    shared reference resolver (tools/dtcg_ref.py, an independent reading of DTCG 2025.10) as the
    one set of a resolver, resolves to exactly the tokens /tokens answers at that mode's context."""
    if not os.path.exists(DTCG_REFERENCE):
        problems.append("%s is missing (the shared material beside the repo): the DTCG export of a token theme was not checked" % DTCG_REFERENCE)
        return 0
    folder = os.path.join(work, "dtcg")
    os.makedirs(folder, exist_ok=True)
    checked = 0
    for mode, context in (("light", "light"), ("dark", "dark"), ("light-high-contrast", "light"), ("dark-p3", "dark")):
        exported = requests.get("%s/themes/typed/tokens.json?mode=%s" % (base, mode)).json()
        with open(os.path.join(folder, mode + ".tokens.json"), "w") as out:
            json.dump(exported, out)
        resolver = os.path.join(folder, mode + ".resolver.json")
        with open(resolver, "w") as out:
            json.dump({"version": "2025.10", "sets": {"exported": {"sources": [{"$ref": mode + ".tokens.json"}]}},
                       "resolutionOrder": [{"$ref": "#/sets/exported"}]}, out)
        result = subprocess.run([sys.executable, DTCG_REFERENCE, resolver], capture_output=True, text=True)
        if result.returncode != 0:
            problems.append("typed dtcg %s: the reference resolver failed: %s" % (mode, result.stderr[:300]))
            continue
        resolved = json.loads(result.stdout)
        if resolved["errors"]:
            problems.append("typed dtcg %s: the reference resolver refused %s" % (mode, sorted(resolved["errors"].items())[:3]))
        served = {path: {"$type": token["$type"], "$value": token["$value"]}
                  for path, token in flatten_tokens(requests.get("%s/themes/typed/tokens?theme=%s" % (base, context)).json())}
        if resolved["tokens"] != served:
            differing = sorted(set(resolved["tokens"]) ^ set(served)) or [p for p in served if resolved["tokens"].get(p) != served[p]]
            problems.append("typed dtcg %s: resolves differently from /tokens at %s: %s" % (mode, context, differing[:5]))
        if exported.get("space", {}).get("gap", {}).get("$value") != "{space.sm}" or any("." in key for key in exported):
            problems.append("typed dtcg %s: groups and aliases are not kept (space.gap is %s)" % (mode, exported.get("space", {}).get("gap")))
        checked += len(served)
    return checked


def css_blocks(text):
    """Every rule of a stylesheet as (enclosing at-rules, selector, {property: value})."""
    blocks = []

    def walk(rules, conditions):
        for rule in rules:
            if rule.type == "at-rule":
                walk(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True),
                     conditions + ["@%s %s" % (rule.at_keyword, tinycss2.serialize(rule.prelude).strip())])
            elif rule.type == "qualified-rule":
                declarations = {item.name: tinycss2.serialize(item.value).strip()
                                for item in tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True)
                                if item.type == "declaration"}
                blocks.append((conditions, tinycss2.serialize(rule.prelude).strip(), declarations))
    walk(tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True), [])
    return blocks


def route_values(base, theme, names):
    """The colour route's answer for every name and mode: {mode: {name: body}}. Asked on one kept
    connection with http.client: there are 18,000 of them, and requests' own work per request
    (1.1 ms against 0.27 here) was most of this check's time."""
    host, port = urllib.parse.urlsplit(base).hostname, urllib.parse.urlsplit(base).port
    connection = http.client.HTTPConnection(host, port, timeout=30)
    values = {}
    try:
        for mode, query in MODES.items():
            values[mode] = {}
            for name in names:
                connection.request("GET", "/themes/%s/colors/%s?%s" % (theme, urllib.parse.quote(name, safe=""), query))
                response = connection.getresponse()
                body = response.read()
                if response.status == 200:
                    values[mode][name] = json.loads(body)
    finally:
        connection.close()
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
                        if not item.name.startswith("--") and not selector.split()[-1].startswith("."):
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
        if folder.startswith("drawable-") and folder.rsplit("-", 1)[1] in DENSITIES:
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
    """Every theme's Compose file compiled in one kotlinc run against a stub of Color (and the
    token theme's, `check_typed_compose`, against stubs of the other types)."""
    if not shutil.which("kotlinc"):
        problems.append("kotlinc is missing (apt-get install kotlin): the Compose export was not compiled")
        return 0
    folder = os.path.join(work, "compose")
    os.makedirs(folder, exist_ok=True)
    typed = check_typed_compose(base, work, folder, problems)
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
    return typed


def check_typescript(base, theme, work, route, problems):
    """`ts` and `js`: tsc --strict takes colors.ts and a consumer of colors.js through its
    colors.d.ts; node imports colors.js, and every colour in every mode equals the route's css.
    Returns the values compared."""
    folder = os.path.join(work, "web-" + theme)
    os.makedirs(folder, exist_ok=True)
    for format_name, files in (("ts", ["colors.ts"]), ("js", ["colors.js", "colors.d.ts"])):
        for name in files:
            response = requests.get("%s/themes/%s/exports/%s/%s" % (base, theme, format_name, name))
            if response.status_code != 200:
                problems.append("%s %s/%s: %d" % (theme, format_name, name, response.status_code))
                return 0
            with open(os.path.join(folder, name if format_name == "js" else "typed-" + name), "w") as file:
                file.write(response.text)
    with open(os.path.join(folder, "consumer.ts"), "w") as file:
        file.write('import { colors, modes, type ColorName, type Mode } from "./colors.js";\n'
                   'const mode: Mode = modes[0];\n'
                   'const names = Object.keys(colors[mode]) as ColorName[];\n'
                   'export const first: string | undefined = names.length > 0 ? colors[mode][names[0]] : undefined;\n')
    for sources in (["typed-colors.ts"], ["consumer.ts"]):
        result = subprocess.run(["tsc", "--strict", "--noEmit", "--target", "es2020", "--module", "es2020", "--moduleResolution", "node"]
                                + [os.path.join(folder, s) for s in sources], capture_output=True, text=True)
        if result.returncode != 0:
            problems.append("%s: tsc --strict %s: %s" % (theme, sources[0], (result.stdout + result.stderr).strip()[:400]))
    script = "import(process.argv[1]).then((m) => console.log(JSON.stringify({modes: m.modes, colors: m.colors, tokens: m.tokens})))"
    result = subprocess.run(["node", "-e", script, "file://" + os.path.join(folder, "colors.js")], capture_output=True, text=True)
    if result.returncode != 0:
        problems.append("%s: node could not import colors.js: %s" % (theme, result.stderr.strip()[:400]))
        return 0
    module = json.loads(result.stdout)
    if module["modes"] != list(MODES):
        problems.append("%s colors.js: modes %s" % (theme, module["modes"]))
    compared = 0
    for mode, bodies in route.items():
        for name, body in bodies.items():
            if "css" not in body:
                continue
            compared += 1
            if module["colors"].get(mode, {}).get(name) != body["css"]:
                problems.append("%s colors.js: %s in %s is %s, the route says %s" % (theme, name, mode, module["colors"].get(mode, {}).get(name), body["css"]))
    if theme == "typed":
        # The other tokens: each the value colors.css declares for it (which check_typed_css
        # compares with /tokens), in light and dark.
        effective = css_effective(requests.get("%s/themes/typed/colors.css" % base).text, problems, "typed colors.css")
        for mode in ("light", "dark"):
            tokens = module.get("tokens", {}).get(mode, {})
            declared = effective[mode][0]
            for path, value in tokens.items():
                prop = "--" + path.replace(".", "-").lower()
                if prop in declared and declared[prop] != value:
                    problems.append("typed colors.js: token %s in %s is %s, colors.css declares %s" % (path, mode, value, declared[prop]))
                compared += prop in declared
        if compared < 10:
            problems.append("typed colors.js: only %d tokens compared with colors.css" % compared)
    return compared


def check_scss(base, theme, work, route, problems):
    """`scss`: sassc (libsass, Debian's) compiles a stylesheet that writes every value of
    $themed-colors; each mode's values, in the export's order, equal the route's css. Returns
    the values compared."""
    folder = os.path.join(work, "scss-" + theme)
    os.makedirs(folder, exist_ok=True)
    response = requests.get("%s/themes/%s/exports/scss/_colors.scss" % (base, theme))
    if response.status_code != 200:
        problems.append("%s scss/_colors.scss: %d" % (theme, response.status_code))
        return 0
    with open(os.path.join(folder, "_colors.scss"), "w") as file:
        file.write(response.text)
    with open(os.path.join(folder, "consumer.scss"), "w") as file:
        file.write('@import "colors";\n'
                   '@each $mode, $values in $themed-colors {\n  .mode-#{$mode} { @each $name, $value in $values { --v: #{$value}; } }\n}\n'
                   '@each $mode, $values in $themed-tokens {\n  .tokens-#{$mode} { @each $name, $value in $values { --v: #{$value}; } }\n}\n')
    result = subprocess.run(["sassc", "-I", folder, os.path.join(folder, "consumer.scss")], capture_output=True, text=True)
    if result.returncode != 0:
        problems.append("%s: sassc: %s" % (theme, result.stderr.strip()[:400]))
        return 0
    compiled = {}
    for rule in tinycss2.parse_stylesheet(result.stdout, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule":
            continue
        selector = tinycss2.serialize(rule.prelude).strip()
        compiled[selector] = [tinycss2.serialize(item.value).strip()
                              for item in tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True)
                              if item.type == "declaration"]
    compared = 0
    for mode, bodies in route.items():
        expected = [bodies[name]["css"] for name in sorted(bodies) if "css" in bodies[name]]
        written = compiled.get(".mode-" + mode, [])
        compared += len(expected)
        if written != expected:
            problems.append("%s _colors.scss: %s compiles to %d values, the route has %d (first difference: %s)"
                            % (theme, mode, len(written), len(expected), next(((w, e) for w, e in zip(written, expected) if w != e), None)))
    return compared


def check_same_bytes(base, theme, themed, themes, work, problems):
    """Each format's files from `themed export` are the route's bytes; with the options too
    (`--light-dark` is `?light-dark=1`, `--prefix ds` is `?prefix=ds`)."""
    for format_name, flags, query in (("css", [], ""), ("dtcg", [], ""), ("android", [], ""), ("swift", [], ""), ("compose", [], ""),
                                      ("ts", [], ""), ("js", [], ""), ("scss", [], ""), ("tailwind", [], ""),
                                      ("css", ["--light-dark", "--prefix", "ds"], "?light-dark=1&prefix=ds"),
                                      ("tailwind", ["--prefix", "ds"], "?prefix=ds"), ("scss", ["--prefix", "ds"], "?prefix=ds")):
        out = os.path.join(work, "cli", theme, format_name + "".join(flags))
        subprocess.run([themed, "export", theme, "--format", format_name, "-o", out, "--themes", themes] + flags,
                       check=True, capture_output=True)
        for directory, _, files in os.walk(out):
            for name in files:
                relative = os.path.relpath(os.path.join(directory, name), out)
                if format_name == "android" and not relative.endswith("colors.xml"):
                    continue  # drawables and strings: the CLI's resource folder only (checked by aapt)
                url = "%s/themes/%s/exports/%s/%s%s" % (base, theme, format_name, relative, query)
                first, second = requests.get(url).content, requests.get(url, headers={"Cache-Control": "no-cache"}).content
                with open(os.path.join(directory, name), "rb") as file:
                    if file.read() != first or first != second:
                        problems.append("%s %s/%s%s: the route and themed export differ" % (theme, format_name, relative, query))


POSTCSS_WALK = """
const postcss = require("postcss");
const root = postcss.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const nodes = [];
root.walk((node) => {
  const parents = [];
  for (let p = node.parent; p && p.type !== "root"; p = p.parent) parents.unshift(p.type === "atrule" ? "@" + p.name + " " + p.params : p.selector);
  nodes.push({type: node.type, name: node.name, params: node.params, prop: node.prop, value: node.value, selector: node.selector, parents});
});
console.log(JSON.stringify(nodes));
"""


def check_tailwind(base, theme, work, problems):
    """theme.css for Tailwind v4, read by Debian's node-postcss: one @theme whose variables are
    the CSS export's light values under Tailwind's names (`--color-` + the CSS name), the dark
    ones restated under the media query, and `@custom-variant dark` with its @slot. With
    `?prefix=ds` the names are `--color-ds-...`."""
    folder = os.path.join(work, "tailwind", theme)
    os.makedirs(folder, exist_ok=True)
    script = os.path.join(work, "tailwind", "walk.js")
    with open(script, "w") as file:
        file.write(POSTCSS_WALK)
    css = css_effective(requests.get("%s/themes/%s/colors.css" % (base, theme)).text, problems, theme + " colors.css")
    compared = 0
    for prefix in ("", "ds"):
        path = os.path.join(folder, "theme%s.css" % prefix)
        with open(path, "wb") as file:
            file.write(requests.get("%s/themes/%s/exports/tailwind/theme.css%s" % (base, theme, "?prefix=" + prefix if prefix else "")).content)
        result = subprocess.run(["node", script, path], capture_output=True, text=True, env=dict(os.environ, NODE_PATH="/usr/share/nodejs"))
        if result.returncode != 0:
            problems.append("%s theme.css: postcss: %s" % (theme, result.stderr.strip()[:400]))
            return compared
        nodes = json.loads(result.stdout)
        if [n["params"] for n in nodes if n["type"] == "atrule" and n["name"] == "custom-variant" and not n["parents"]] != ["dark"] \
                or not any(n["type"] == "atrule" and n["name"] == "slot" and n["parents"][0] == "@custom-variant dark" for n in nodes):
            problems.append("%s theme.css: no @custom-variant dark with its @slot" % theme)
        light = {n["prop"]: n["value"] for n in nodes if n["type"] == "decl" and n["parents"] == ["@theme "]}
        dark = dict(light)
        dark.update({n["prop"]: n["value"] for n in nodes if n["type"] == "decl" and n["parents"] == ["@media (prefers-color-scheme: dark)", ":root"]})
        for mode, declared in (("light", light), ("dark", dark)):
            for prop, want in css[mode][0].items():
                name = "--color-" + ("ds-" if prefix else "") + prop[2:]
                if declared.get(name) != want:
                    problems.append("%s theme.css%s %s: %s is %s, colors.css has %s" % (theme, " (prefix ds)" if prefix else "", mode, name, declared.get(name), want))
                compared += 1
    return compared


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
    web = 0
    sass = 0
    tailwind = 0
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
        web += check_typescript(base, theme, work, route, problems)
        sass += check_scss(base, theme, work, route, problems)
        tailwind += check_tailwind(base, theme, work, problems)
        checked += len(names) * len(MODES)
    typed = check_compose(base, list(routes), routes, all_names, work, problems)
    typed += check_typed_css(base, problems)
    check_same_bytes(base, "typed", themed, themes, work, problems)
    typed += check_typed_android(base, problems)
    typed += check_typed_swift(base, work, problems)
    typed += check_typed_dtcg(base, work, problems)
    typed += check_typescript(base, "typed", work, {}, problems)  # its design tokens through tsc --strict, and node
    check_scss(base, "typed", work, {}, problems)  # and sassc
    check_android_resources("typed", themed, themes, work, problems)
    for problem in problems[:40]:
        print("  " + problem)
    if problems:
        sys.exit("exports: %d problems" % len(problems))
    print("exports: css, dtcg, android, swift, compose, ts, js, scss and tailwind of 5 themes parse (aapt took every resource folder, %d drawables at "
          "their densities; kotlinc compiled the Compose files; tsc --strict the TypeScript, node imported the JavaScript, sassc "
          "compiled the Sass, postcss read the Tailwind theme), %d colour values equal the colour route (%d of them in colors.js, %d in "
          "_colors.scss, %d Tailwind variables equal colors.css), and %d values of other design tokens (CSS, Android resources, Compose, "
          "Swift, DTCG, colors.js) equal /tokens" % (drawables, checked, web, sass, tailwind, typed))


if __name__ == "__main__":
    main()
