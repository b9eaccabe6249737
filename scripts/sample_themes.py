"""The sample themes in themes/ as the repository holds them. `make themes` (and so `make run`)
compiles an Assets.car beside each Theme.xcassets, and a catalog answers before the catalog
folder beside it: a check or a benchmark that copies the samples and edits a colour would read
the compiled one. Copies leave those out (`ignore=SAMPLE_BUILDS`), as a fresh clone has none.
"""
import shutil

SAMPLE_BUILDS = shutil.ignore_patterns("Assets.car")
