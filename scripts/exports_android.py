"""The Android exports checked: colour XML against the route, a token theme's dimens, integers and
styles in Android's units, and `themed export --format android` through aapt with each drawable
at its density's size.
"""
import math
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree

import requests

from exports_shared import export_names, flatten_tokens, number, words
from exports_css import expected_css


JAVA_KEYWORDS = {"class", "new", "int", "default", "public", "static", "void", "true", "false", "null", "switch", "case"}


def android_name(name):
    joined = "_".join(w.lower() for w in words(name))
    return joined if joined and not joined[0].isdigit() and joined not in JAVA_KEYWORDS else "color_" + joined


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
