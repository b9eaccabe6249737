#!/usr/bin/env python3
"""Compares themed's conversions of Design Tokens colours (every space of the Color module) to
sRGB and Display P3, gamut mapped, with coloraide's (PyPI), which implements CSS Color 4.

Input: a JSON file of samples written by the Swift test ColorConversionTests:
  [{"space": "oklch", "components": [0.7, 0.1, 30], "srgb": [r, g, b], "p3": [r, g, b]}, ...]
"none" components are null. Prints each disagreement and a closing count; exits 1 on any.
"""
import json
import sys

from coloraide import Color

# The Color module writes hsl and hwb's percentages as 0-100; coloraide takes 0-1.
PERCENT = {"hsl": (1, 2), "hwb": (1, 2)}
# In gamut the conversion is exact; mapped colours may differ by the search's step.
EXACT, MAPPED = 2e-4, 3e-3


def reference(space, components, destination):
    coords = [float("nan") if c is None else c for c in components]
    for index in PERCENT.get(space, ()):
        coords[index] = coords[index] / 100
    color = Color(space, coords).convert(destination)
    mapped = not color.in_gamut()
    return color.fit(method="oklch-chroma").coords(nans=False), mapped


def main():
    samples = json.load(open(sys.argv[1]))
    failed = 0
    for sample in samples:
        for destination, key in (("srgb", "srgb"), ("display-p3", "p3")):
            expected, mapped = reference(sample["space"], sample["components"], destination)
            got = sample[key]
            worst = max(abs(a - b) for a, b in zip(expected, got))
            if worst > (MAPPED if mapped else EXACT):
                failed += 1
                print(f"{sample['space']} {sample['components']} -> {destination}: themed {got}, coloraide {expected} (off by {worst:.5f})")
    print(f"colors: {len(samples) * 2 - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
