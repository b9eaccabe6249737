"""The Compose export checked: compiled by Debian's kotlinc against stubs of Compose's types, its
values equal to the route's and /tokens'.
"""
import os
import re
import shutil
import subprocess

import requests

from exports_shared import export_names, flatten_tokens, number, words
from exports_css import expected_css


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
