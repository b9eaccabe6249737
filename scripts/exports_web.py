"""The web exports checked: TypeScript by `tsc --strict` and JavaScript by node against the
route's values, Sass by sassc, Tailwind's `@theme` by postcss against colors.css.
"""
import json
import os
import subprocess

import requests
import tinycss2

from exports_shared import MODES
from exports_css import css_effective


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
