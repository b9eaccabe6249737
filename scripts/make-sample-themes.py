#!/usr/bin/env python3
"""Writes the sample themes in themes/ (light and dark) as .xcassets sources: colour sets with
light/dark/high-contrast variants in several component notations, image sets at 1x/2x/3x with
dark variants (PNGs drawn here), and an SVG vector; and `brand`, a child of `light` made of a
resource bundle: Info.plist, loose images with @2x and .lproj variants, Localizable.strings
in UTF-8 and UTF-16, and a plural .stringsdict. Everything is generated, so the project owns it. Run again to regenerate;
the output is deterministic.

    python3 scripts/make-sample-themes.py
"""
import json
import math
import os
import shutil
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "themes")


def png(width, height, pixel):
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def logo(size, fg, bg):
    """A rounded badge with a ring: smooth edges so scaling differences are visible."""
    def pixel(x, y):
        cx = cy = (size - 1) / 2
        d = math.hypot(x - cx, y - cy) / (size / 2)
        if d > 1:
            return (0, 0, 0, 0)
        a = max(0, min(255, int((1 - d) * size * 2)))
        ring = 0.55 < d < 0.75
        color = fg if ring else bg
        return (*color, a)
    return png(size, size, pixel)


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        json.dump(value, fh, indent=2, sort_keys=True)
        fh.write("\n")


def colorset(folder, name, variants):
    colors = []
    for appearance, components in variants:
        entry = {"idiom": "universal", "color": {"color-space": components.pop("space", "srgb"), "components": components}}
        if appearance == "dark":
            entry["appearances"] = [{"appearance": "luminosity", "value": "dark"}]
        elif appearance == "light":
            entry["appearances"] = [{"appearance": "luminosity", "value": "light"}]
        elif appearance == "high":
            entry["appearances"] = [{"appearance": "contrast", "value": "high"}]
        colors.append(entry)
    write_json(os.path.join(folder, name + ".colorset", "Contents.json"),
               {"colors": colors, "info": {"author": "xcode", "version": 1}})


def imageset(folder, name, base, fg, bg, dark_fg, dark_bg):
    path = os.path.join(folder, name + ".imageset")
    os.makedirs(path, exist_ok=True)
    images = []
    for scale in (1, 2, 3):
        for appearance, (f, b) in (("any", (fg, bg)), ("dark", (dark_fg, dark_bg))):
            filename = "%s%s@%dx.png" % (name, "-dark" if appearance == "dark" else "", scale)
            with open(os.path.join(path, filename), "wb") as fh:
                fh.write(logo(base * scale, f, b))
            entry = {"idiom": "universal", "scale": "%dx" % scale, "filename": filename}
            if appearance == "dark":
                entry["appearances"] = [{"appearance": "luminosity", "value": "dark"}]
            images.append(entry)
    write_json(os.path.join(path, "Contents.json"), {"images": images, "info": {"author": "xcode", "version": 1}})


def vector(folder, name, color):
    path = os.path.join(folder, name + ".imageset")
    os.makedirs(path, exist_ok=True)
    svg = ('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" '
           'viewBox="0 0 24 24"><path fill="%s" d="M12 2l3 7h7l-5.5 4.5 2 7.5L12 17l-6.5 4 2-7.5L2 9h7z"/></svg>\n' % color)
    with open(os.path.join(path, name + ".svg"), "w") as fh:
        fh.write(svg)
    write_json(os.path.join(path, "Contents.json"), {
        "images": [{"idiom": "universal", "filename": name + ".svg"}],
        "info": {"author": "xcode", "version": 1},
        "properties": {"preserves-vector-representation": True}})


def theme(name, palette, images):
    folder = os.path.join(ROOT, name, "Theme.xcassets")
    write_json(os.path.join(folder, "Contents.json"), {"info": {"author": "xcode", "version": 1}})
    for color_name, variants in palette.items():
        colorset(folder, color_name, [(a, dict(c)) for a, c in variants])
    imageset(folder, "logo", 32, *images)
    vector(folder, "star", "#%02X%02X%02X" % images[0])


def main():
    shutil.rmtree(ROOT, ignore_errors=True)
    # Three notations Xcode writes: decimal strings, 0x hex bytes, 0-255 integers.
    theme("light", {
        "primary": [("any", {"red": "0.000", "green": "0.478", "blue": "1.000", "alpha": "1.000"}),
                    ("dark", {"red": "0.039", "green": "0.518", "blue": "1.000", "alpha": "1.000"}),
                    ("high", {"red": "0.000", "green": "0.251", "blue": "0.867", "alpha": "1.000"})],
        "background": [("any", {"red": "0xFF", "green": "0xFF", "blue": "0xFF", "alpha": "1.000"}),
                       ("dark", {"red": "0x1C", "green": "0x1C", "blue": "0x1E", "alpha": "1.000"})],
        "accent": [("any", {"red": "255", "green": "149", "blue": "0", "alpha": "1.000"}),
                   ("any-p3", {"space": "display-p3", "red": "1.000", "green": "0.584", "blue": "0.000", "alpha": "1.000"})],
        "label": [("any", {"white": "0.000", "alpha": "1.000", "space": "gray-gamma-22"}),
                  ("dark", {"white": "1.000", "alpha": "1.000", "space": "gray-gamma-22"})],
    }, ((0, 122, 255), (235, 242, 255), (10, 132, 255), (28, 28, 30)))
    theme("dark", {
        "primary": [("any", {"red": "0.039", "green": "0.518", "blue": "1.000", "alpha": "1.000"}),
                    ("high", {"red": "0.251", "green": "0.612", "blue": "1.000", "alpha": "1.000"})],
        "background": [("any", {"red": "0x00", "green": "0x00", "blue": "0x00", "alpha": "1.000"})],
        "accent": [("any", {"red": "255", "green": "159", "blue": "10", "alpha": "1.000"})],
        "label": [("any", {"white": "1.000", "alpha": "1.000", "space": "gray-gamma-22"})],
    }, ((10, 132, 255), (28, 28, 30), (64, 156, 255), (0, 0, 0)))
    # The P3 accent variant of the light theme: a display-gamut entry.
    path = os.path.join(ROOT, "light", "Theme.xcassets", "accent.colorset", "Contents.json")
    contents = json.load(open(path))
    contents["colors"][1]["display-gamut"] = "display-P3"
    write_json(path, contents)
    brand()


def brand():
    """A theme that inherits from light and ships a resource bundle."""
    folder = os.path.join(ROOT, "brand")
    os.makedirs(folder, exist_ok=True)
    write_json(os.path.join(folder, "theme.json"), {"parent": "light"})
    bundle = os.path.join(folder, "Brand.bundle")
    for sub in ("en.lproj", "fr.lproj", "de.lproj"):
        os.makedirs(os.path.join(bundle, sub), exist_ok=True)
    with open(os.path.join(bundle, "Info.plist"), "w") as out:
        out.write("""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>CFBundleIdentifier</key>
\t<string>com.example.brand</string>
\t<key>CFBundleDevelopmentRegion</key>
\t<string>en</string>
\t<key>CFBundlePackageType</key>
\t<string>BNDL</string>
</dict>
</plist>
""")
    strings = {
        "en": {"welcome": "Welcome", "sign_in": "Sign in", "sign_out": "Sign out"},
        "fr": {"welcome": "Bienvenue", "sign_in": "Se connecter"},
        "de": {"welcome": "Willkommen", "sign_in": "Anmelden", "sign_out": "Abmelden"},
    }
    for language, table in strings.items():
        text = "/* Brand strings, %s. */\n" % language + "".join('"%s" = "%s";\n' % item for item in table.items())
        path = os.path.join(bundle, language + ".lproj", "Localizable.strings")
        # Xcode writes UTF-8 today; older projects have UTF-16 with a byte-order mark.
        data = text.encode("utf-16") if language == "de" else text.encode("utf-8")
        with open(path, "wb") as out:
            out.write(data)
    # Plural rules: "%d new messages" by count, in English and French (French counts 0 as one).
    plurals = {"en": ("%d new message", "%d new messages"), "fr": ("%d nouveau message", "%d nouveaux messages")}
    for language, (one, other) in plurals.items():
        with open(os.path.join(bundle, language + ".lproj", "Localizable.stringsdict"), "w") as out:
            out.write("""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>%%d new messages</key>
\t<dict>
\t\t<key>NSStringLocalizedFormatKey</key>
\t\t<string>%%#@messages@</string>
\t\t<key>messages</key>
\t\t<dict>
\t\t\t<key>NSStringFormatSpecTypeKey</key>
\t\t\t<string>NSStringPluralRuleType</string>
\t\t\t<key>NSStringFormatValueTypeKey</key>
\t\t\t<string>d</string>
\t\t\t<key>one</key>
\t\t\t<string>%s</string>
\t\t\t<key>other</key>
\t\t\t<string>%s</string>
\t\t</dict>
\t</dict>
</dict>
</plist>
""" % (one, other))
    for scale in (1, 2):
        with open(os.path.join(bundle, "badge%s.png" % ("" if scale == 1 else "@2x")), "wb") as out:
            out.write(logo(16 * scale, (255, 45, 85), (255, 255, 255)))
    for language, colour in (("en", (0, 40, 104)), ("fr", (0, 85, 164)), ("de", (0, 0, 0))):
        with open(os.path.join(bundle, language + ".lproj", "flag.png"), "wb") as out:
            out.write(logo(16, colour, (255, 255, 255)))


if __name__ == "__main__":
    main()
