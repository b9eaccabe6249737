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
import os
import shutil
import subprocess
import sys
import tempfile

import requests

from local_themed import LocalThemed
from exports_shared import MODES, make_themes, route_values
from exports_css import check_css, check_typed_css
from exports_web import check_scss, check_tailwind, check_typescript
from exports_android import check_android, check_android_resources, check_typed_android
from exports_compose import check_compose
from exports_swift import check_swift, check_typed_swift
from exports_dtcg import check_tokens, check_typed_dtcg


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


if __name__ == "__main__":
    main()
