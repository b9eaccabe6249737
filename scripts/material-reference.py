#!/usr/bin/env python3
"""Material 3 colour roles from seeds, as PyPI materialyoucolor 3.0.4 computes them with
spec_version "2021": the reference Tests/MaterialColorTests compares themed's Swift port with.

Usage: material-reference.py CONTRAST_LEVELS SEED...   (levels comma-separated, like 0,0.5,1)
Prints one JSON object per scheme: seed, variant, dark, contrast and roles {name: "#AARRGGBB"}.
"""
import json
import sys

from materialyoucolor.dynamiccolor.dynamic_scheme import DynamicScheme
from materialyoucolor.dynamiccolor.material_dynamic_colors import MaterialDynamicColors
from materialyoucolor.dynamiccolor.variant import Variant
from materialyoucolor.hct import Hct

VARIANTS = {"tonalSpot": Variant.TONAL_SPOT, "neutral": Variant.NEUTRAL, "vibrant": Variant.VIBRANT,
            "expressive": Variant.EXPRESSIVE, "fidelity": Variant.FIDELITY, "content": Variant.CONTENT,
            "monochrome": Variant.MONOCHROME, "rainbow": Variant.RAINBOW, "fruitSalad": Variant.FRUIT_SALAD}
KEY_COLORS = {"primaryPaletteKeyColor", "secondaryPaletteKeyColor", "tertiaryPaletteKeyColor",
              "neutralPaletteKeyColor", "neutralVariantPaletteKeyColor", "errorPaletteKeyColor"}


def main():
    levels = [float(level) for level in sys.argv[1].split(",")]
    colors = MaterialDynamicColors(spec="2021")
    roles = [(color.name, color) for color in colors.all_colors if color.name not in KEY_COLORS]
    for seed in sys.argv[2:]:
        argb = 0xFF000000 | int(seed.lstrip("#"), 16)
        for name, variant in VARIANTS.items():
            for dark in (False, True):
                for level in levels:
                    scheme = DynamicScheme(Hct.from_int(argb), variant, level, dark, spec_version="2021")
                    print(json.dumps({"seed": seed, "variant": name, "dark": dark, "contrast": level,
                                      "roles": {role: "#%08X" % color.get_argb(scheme) for role, color in roles}}))


if __name__ == "__main__":
    main()
