"""The DTCG export checked: the format's rules (by the shared dtcg_ref.py) and its values equal to
the route's.
"""
import json
import os
import re
import subprocess
import sys

import requests

from exports_shared import MODES, ROOT, flatten_tokens


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
