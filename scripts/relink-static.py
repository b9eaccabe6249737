#!/usr/bin/env python3
"""Links `themed` again from the objects of a build already made, as the package links it:
Swift's runtime and Foundation static, full RELRO, libcurl for static FoundationNetworking
(the flags of DEB_FLAGS in the Makefile).

`make test` packages the binary it has just tested this way instead of compiling every module a
second time for `make deb` (on two cores that was about as long as the test build itself). The
objects are the test build's (`-enable-testing`, `-DCHECK_INVARIANTS`): the package checked is
the code the tests ran, linked the way the shipped one is. `make deb` still compiles its own.

The link command is SwiftPM's own, read from the build's llbuild manifest (`.build/release.yaml`),
so the libraries the targets link (libpq, libvips, ...) are the ones Package.swift names.

    python3 scripts/relink-static.py [--build .build] [--output out/deb-binary/themed]
"""
import argparse
import json
import os
import subprocess
import sys

STATIC_FLAGS = ["-static-stdlib", "-Xlinker", "-z", "-Xlinker", "now", "-Xlinker", "-z", "-Xlinker", "relro", "-Xlinker", "-lcurl"]
# What Foundation's modules name for the linker only when compiled against a static runtime (their
# autolink entries in an object of `make deb`'s build): the libraries under static Foundation, in
# the order an archive needs them (after what uses them).
STATIC_FOUNDATION = ["-lFoundationNetworking", "-l_CFURLSessionInterface", "-lcurl", "-lFoundation", "-lFoundationInternationalization",
                     "-lCoreFoundation", "-l_FoundationICU", "-lFoundationEssentials", "-l_FoundationCShims", "-l_FoundationCollections"]


def link_command(manifest, product_path):
    """SwiftPM's arguments for linking `product_path`, from the manifest's `args:` line of the
    command that outputs it (each such line is a JSON array)."""
    command, outputs = None, None
    for line in open(manifest):
        stripped = line.strip()
        if stripped.startswith("outputs: "):
            outputs = json.loads(stripped[len("outputs: "):])
        elif stripped.startswith("args: ") and outputs == [product_path]:
            command = json.loads(stripped[len("args: "):])
        elif not line.startswith(" "):
            outputs = None
    if command is None:
        sys.exit(f"relink-static: no link command for {product_path} in {manifest}; build it first")
    return command


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=".build")
    parser.add_argument("--output", default="out/deb-binary/themed")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    product = os.path.join(os.path.realpath(os.path.join(build, "release")), "themed")
    command = link_command(os.path.join(build, "release.yaml"), product)
    output = os.path.abspath(args.output)
    os.makedirs(os.path.dirname(output), exist_ok=True)
    at = command.index("-o")
    command[at + 1] = output
    if "-static-stdlib" not in command:
        command += STATIC_FLAGS + STATIC_FOUNDATION
    subprocess.run(command, check=True)
    dynamic = [line.split()[0] for line in subprocess.run(["ldd", output], capture_output=True, text=True, check=True).stdout.splitlines()
               if line.strip().startswith(("libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime"))]
    if dynamic:
        sys.exit(f"relink-static: {output} still links Swift's runtime dynamically: {', '.join(dynamic)}")
    print(output)


if __name__ == "__main__":
    main()
