"""The CSS export checked: tinycss2 parses it, and every custom property's effective value in each
mode equals the colour route's; a token theme's other tokens as the CSS value the DTCG spec's
shape makes (written here from the spec, not from themed's code), the other formats' base.
"""
import json
import re

import requests
import tinycss2

from exports_shared import MODES, export_names, flatten_tokens, number, words


def css_name(name):
    return "--" + ("-".join(w.lower() for w in words(name)) or "color")


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
