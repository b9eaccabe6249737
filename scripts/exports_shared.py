"""What the export checks share (scripts/check-exports.py runs them): the themes made for them
(`awkward`, `many`, `typed`), the export names a theme's colours take, and the colour route's
values every format is compared with.
"""
import http.client
import json
import os
import re
import shutil
import urllib.parse

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


def flatten_tokens(document, path=()):
    for key, value in document.items():
        if key.startswith("$") or not isinstance(value, dict):
            continue
        if "$value" in value:
            yield ".".join(path + (key,)), value
        else:
            yield from flatten_tokens(value, path + (key,))


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
