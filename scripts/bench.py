#!/usr/bin/env python3
"""`make bench`: themed's decoders against Apple's C LZFSE decoder, timed in one run on the same
bytes, reported as ratios; and uncached index lookups against a primary-key SELECT.

Apple's decoder is measured twice: built with -O2 from the lzfse sources in the PyPI `lzfse` sdist
(downloaded into a temporary folder, never committed), calling lzfse_decode_buffer with the known
output size; and through the Python `lzfse` package, whose wrapper adds a size-guessing retry and a
copy per call (shown for reference only).

    python3 scripts/bench.py --themed-bench .build/release/themed-bench --corpus ../shared/corpus
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import time

import lzfse


def run(binary, *args):
    out = subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[0])


def read_records(dump, header):
    """The byte strings of a themed-bench dump: records of a u32 length, `header` bytes in all,
    then that many bytes."""
    data = open(dump, "rb").read()
    records, p = [], 0
    while p < len(data):
        n = struct.unpack("<I", data[p:p + 4])[0]
        records.append(data[p + header:p + header + n])
        p += header + n
    return records


def best_of(rounds, body):
    """(fastest time, result) of `rounds` calls of body()."""
    best, result = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        result = body()
        best = min(best, time.perf_counter() - start)
    return best, result


def reference_encode(dump, rounds=3):
    """Apple's encoder (through the Python wrapper) on the payloads themed-bench encoded."""
    inputs = read_records(dump, 4)
    seconds, size = best_of(rounds, lambda: sum(len(lzfse.compress(x)) for x in inputs))
    raw = sum(len(x) for x in inputs)
    return {"bytes": raw, "compressedBytes": size, "mbPerSecond": raw / seconds / 1e6}


def reference_lzfse(dump, rounds=5):
    payloads = read_records(dump, 8)
    seconds, total = best_of(rounds, lambda: sum(len(lzfse.decompress(x)) for x in payloads))
    return {"items": len(payloads), "bytes": total, "seconds": seconds, "mbPerSecond": total / seconds / 1e6}


def build_c_reference(scratch):
    """Apple's lzfse sources from PyPI, compiled with our harness; None when that fails."""
    try:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                        "-d", scratch, "lzfse"], check=True, capture_output=True)
        archive = next(f for f in os.listdir(scratch) if f.endswith(".tar.gz"))
        subprocess.run(["tar", "xzf", archive], cwd=scratch, check=True)
        src = next(os.path.join(root) for root, _dirs, files in os.walk(scratch) if "lzfse_decode.c" in files)
        harness = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lzfse_reference_bench.c")
        binary = os.path.join(scratch, "lzfse-reference-bench")
        sources = [os.path.join(src, f) for f in os.listdir(src) if f.endswith(".c") and f != "lzfse_main.c"]
        subprocess.run(["cc", "-O2", "-I", src, "-o", binary, harness] + sources, check=True, capture_output=True)
        return binary
    except (subprocess.CalledProcessError, StopIteration, OSError) as error:
        print("bench: could not build Apple's C decoder (%s); comparing with the Python wrapper only" % error)
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--themed-bench", default=".build/release/themed-bench")
    parser.add_argument("--corpus", default="../shared/corpus")
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.corpus, "car")):
        print("bench: %s/car not found" % args.corpus)
        return 1
    with tempfile.TemporaryDirectory() as scratch:
        dump = os.path.join(scratch, "lzfse.payloads")
        ours = run(args.themed_bench, "lzfse", args.corpus, dump)
        apple = reference_lzfse(dump)
        c_binary = build_c_reference(scratch)
        apple_c = run(c_binary, dump) if c_binary else None
        encode_dump = os.path.join(scratch, "encode.payloads")
        encoded = run(args.themed_bench, "encode", args.corpus, encode_dump)
        apple_encoded = reference_encode(encode_dump)
    deepmap = run(args.themed_bench, "deepmap", args.corpus)
    catalogs = run(args.themed_bench, "catalogs", args.corpus)
    assert ours["bytes"] == apple["bytes"], "the two decoders disagree on the output size"
    print("LZFSE decode, %d corpus payloads, %.1f MB out (best of 5):" % (ours["items"], ours["bytes"] / 1e6))
    print("  themed (Swift)        %8.1f MB/s" % ours["mbPerSecond"])
    if apple_c:
        assert apple_c["bytes"] == ours["bytes"]
        print("  Apple lzfse (C, -O2)  %8.1f MB/s" % apple_c["mbPerSecond"])
        print("  ratio themed / C      %8.2f" % (ours["mbPerSecond"] / apple_c["mbPerSecond"]))
    print("  Apple lzfse (Python)  %8.1f MB/s   (wrapper retries and copies; reference only)" % apple["mbPerSecond"])
    print("  ratio themed / Python %8.2f" % (ours["mbPerSecond"] / apple["mbPerSecond"]))
    print("deepmap + deepmap2 decode, %d chunks, %.1f MB of pixels (best of 3):" % (deepmap["items"], deepmap["bytes"] / 1e6))
    print("  themed                %8.1f MB/s   (%.2f x our LZFSE rate)" % (deepmap["mbPerSecond"], deepmap["mbPerSecond"] / ours["mbPerSecond"]))
    print("open + enumerate + decode all 32 catalogs (%d renditions, %.1f MB out, best of 3):" % (catalogs["items"], catalogs["bytes"] / 1e6))
    print("  themed                %8.3f s      peak RSS %.0f MB" % (catalogs["seconds"], catalogs["peakRSSMB"]))
    assert encoded["bytes"] == apple_encoded["bytes"]
    print("LZFSE encode (themed compile), the first %d decoded corpus payloads, %.1f MB in (best of 3):" % (encoded["items"], encoded["bytes"] / 1e6))
    print("  themed (Swift)        %8.1f MB/s   %.2f MB out" % (encoded["mbPerSecond"], encoded["compressedBytes"] / 1e6))
    print("  Apple lzfse (Python)  %8.1f MB/s   %.2f MB out" % (apple_encoded["mbPerSecond"], apple_encoded["compressedBytes"] / 1e6))
    print("  size themed / Apple   %8.3f       speed themed / Apple %.2f" % (
        encoded["compressedBytes"] / apple_encoded["compressedBytes"], encoded["mbPerSecond"] / apple_encoded["mbPerSecond"]))
    lookups = run(args.themed_bench, "lookups", args.corpus)
    reference = lookups["referenceMicroseconds"]
    print("uncached lookups (a response-cache miss), 2,000 each, best of 3; %s + a localized bundle + a child theme:" % lookups["catalog"])
    print("  primary-key SELECT    %8.1f us     (reference)" % reference)
    for label, key in (("catalog image", "catalogMicroseconds"), ("loose file", "fileMicroseconds"), ("localized string", "stringMicroseconds")):
        print("  %-21s %8.1f us     %5.1f x reference" % (label, lookups[key], lookups[key] / reference))
    return 0


if __name__ == "__main__":
    sys.exit(main())
