#!/usr/bin/env python3
"""Records what independent reference decoders make of the shared corpus, for the Swift tests
to compare against:

  Tests/AssetCatalogTests/Fixtures/corpus-pixels.tsv
      one line per rendition that ../shared/tools/carref.py decodes: catalog, tree position,
      width, height, and sha256 of the premultiplied RGBA pixels (GA8 expanded to gray, gray,
      gray, alpha; links cropped from their atlas) or of the raw data a reader serves.
  Tests/AssetCatalogTests/Fixtures/corpus-lzfse.tsv
      one line per LZFSE payload (CELM compression 4 chunk, or RAWD version 1): catalog, tree
      position, chunk number, decoded length and sha256 as Apple's C decoder (the Python lzfse
      package) produces them.

    pip install lzfse numpy pillow
    python3 scripts/make-corpus-digests.py [--corpus ../shared/corpus] [--carref-out /tmp/carref]
"""
import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys

import lzfse

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Tests", "AssetCatalogTests", "Fixtures")


def lzfse_payloads(path, tools):
    sys.path.insert(0, tools)
    import carscan as cs  # noqa: E402  (the oracle's BOM reader)
    bom = cs.BOM(open(path, "rb").read())
    if "RENDITIONS" not in bom.vars:
        return
    items, _ = bom.tree_items("RENDITIONS", [])
    for n, (_key, value) in enumerate(items):
        if value[:4] != b"ISTC" or len(value) < 184:
            continue
        tlv_length = struct.unpack("<I", value[168:172])[0]
        payload = value[184 + tlv_length:]
        if payload[:4] == b"MLEC":
            flags, compression, field = struct.unpack("<III", payload[4:16])
            if compression != 4:
                continue
            if flags & 1:
                chunks, p = [], 16
                for _ in range(field):
                    rows, length = struct.unpack("<II", payload[p + 12:p + 20])
                    chunks.append(payload[p + 20:p + 20 + length])
                    p += 20 + length
            else:
                chunks = [payload[16:16 + field]]
        elif payload[:4] == b"DWAR" and struct.unpack("<I", payload[4:8])[0] == 1:
            length = struct.unpack("<I", payload[8:12])[0]
            chunks = [payload[12:12 + length]]
        else:
            continue
        for index, chunk in enumerate(chunks):
            decoded = lzfse.decompress(chunk)
            yield n, index, len(decoded), hashlib.sha256(decoded).hexdigest()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "shared", "corpus"))
    parser.add_argument("--carref-out", default="/tmp/carref")
    args = parser.parse_args()
    tools = os.path.join(args.corpus, "..", "tools")
    cars = sorted(os.path.join(args.corpus, "car", f) for f in os.listdir(os.path.join(args.corpus, "car")) if f.endswith(".car"))
    if not os.path.exists(os.path.join(args.carref_out, "summary.json")):
        subprocess.run([sys.executable, os.path.join(tools, "carref.py"), "--out", args.carref_out] + cars, check=True)
    os.makedirs(FIXTURES, exist_ok=True)
    with open(os.path.join(FIXTURES, "corpus-pixels.tsv"), "w") as out:
        out.write("# catalog\tposition\twidth\theight\tkind\tsha256 (made by scripts/make-corpus-digests.py from carref.py)\n")
        for car in cars:
            name = os.path.basename(car)
            for line in open(os.path.join(args.carref_out, name, "index.jsonl")):
                record = json.loads(line)
                if record.get("status") != "ok" or not isinstance(record.get("n"), int):
                    continue
                if record.get("premulSha256"):
                    out.write("%s\t%d\t%d\t%d\tpixels\t%s\n" % (name, record["n"], record["width"] if record.get("kind") != "link" else record["rect"]["stored"][2],
                                                           record["height"] if record.get("kind") != "link" else record["rect"]["stored"][3], record["premulSha256"]))
                elif record.get("dataSha256"):
                    out.write("%s\t%d\t0\t0\tdata\t%s\n" % (name, record["n"], record["dataSha256"]))
    with open(os.path.join(FIXTURES, "corpus-lzfse.tsv"), "w") as out:
        out.write("# catalog\tposition\tchunk\tdecoded bytes\tsha256 (made by scripts/make-corpus-digests.py with Apple's lzfse)\n")
        for car in cars:
            for n, index, length, digest in lzfse_payloads(car, tools):
                out.write("%s\t%d\t%d\t%d\t%s\n" % (os.path.basename(car), n, index, length, digest))


if __name__ == "__main__":
    main()
