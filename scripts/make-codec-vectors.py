#!/usr/bin/env python3
"""Writes the LZFSE/LZVN test vectors in Tests/CodecsTests/Vectors with Apple's reference
encoder (the Python `lzfse` package wraps Apple's C library). Inputs are deterministic, so
running this again reproduces the same files.

    pip install lzfse && python3 scripts/make-codec-vectors.py
"""
import hashlib
import os
import random
import struct

import lzfse

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "CodecsTests", "Vectors")


def inputs():
    rng = random.Random(20261123)
    words = [b"theme", b"color", b"primary", b"asset", b"catalog", b"image", b"dark", b"light", b"\n", b" "]
    text = b"".join(rng.choice(words) for _ in range(40000))
    # Pixel-like data: rows of a gradient with runs and noise, as bitmaps compress.
    pixels = bytearray()
    for y in range(200):
        for x in range(300):
            a = 255 if (x // 20 + y // 20) % 3 else 0
            pixels += bytes(((x * a) // 300, (y * a) // 200, rng.randrange(0, a + 1) if a else 0, a))
    yield "text", text
    yield "pixels", bytes(pixels)
    yield "zeros", bytes(200000)
    yield "random", bytes(rng.getrandbits(8) for _ in range(20000))
    yield "short", b"abc"
    yield "empty", b""
    # Small inputs make the encoder choose LZVN (bvxn blocks).
    yield "small-text", text[:3000]
    yield "small-pixels", bytes(pixels[:3500])
    # Large enough for several bvx2 blocks.
    yield "multiblock", text * 4 + bytes(pixels)


def main():
    os.makedirs(OUT, exist_ok=True)
    lines = []
    for name, data in inputs():
        packed = lzfse.compress(data)
        with open(os.path.join(OUT, name + ".lzfse"), "wb") as fh:
            fh.write(packed)
        magics = sorted({packed[i:i + 4].decode() for i in range(len(packed) - 3)
                         if packed[i:i + 3] == b"bvx" and packed[i + 3:i + 4] in b"-n12$"})
        lines.append("%s\t%d\t%s\t%s" % (name, len(data), hashlib.sha256(data).hexdigest(), ",".join(magics)))
        if packed[:4] == b"bvxn":
            raw, payload = struct.unpack("<II", packed[4:12])
            with open(os.path.join(OUT, name + ".lzvn"), "wb") as fh:
                fh.write(packed[12:12 + payload])
    with open(os.path.join(OUT, "vectors.tsv"), "w") as fh:
        fh.write("# name\tdecoded bytes\tsha256 of decoded bytes\tblock magics (made by make-codec-vectors.py)\n")
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
