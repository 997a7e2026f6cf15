#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a large Kineto trace for the import benchmark (docs/PERFORMANCE.md): the events of a
real trace repeated, each copy shifted in time past the previous one, until the output reaches
the requested size. Usage: make_big_kineto.py SOURCE.json.gz OUTPUT.json SIZE_MB"""
import gzip
import json
import sys


def main():
    source, output, size_mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
    with gzip.open(source, "rt") as f:
        doc = json.load(f)
    events = doc.pop("traceEvents")
    timed = [e for e in events if isinstance(e.get("ts"), (int, float))]
    start = min(e["ts"] for e in timed)
    span = max(e["ts"] + e.get("dur", 0) for e in timed) - start + 1000.0
    target = int(size_mb * 1e6)
    with open(output, "w") as out:
        header = json.dumps(doc)[:-1]  # the top-level keys, without the closing brace
        out.write(header + (", " if doc else "") + '"traceEvents": [\n')
        written, copy, first = 0, 0, True
        while written < target:
            shift = copy * span
            for e in events:
                if "ts" in e and isinstance(e["ts"], (int, float)):
                    e = dict(e)
                    e["ts"] = round(e["ts"] + shift, 3)
                line = ("" if first else ",\n") + json.dumps(e)
                first = False
                out.write(line)
                written += len(line)
            copy += 1
        out.write("\n]}\n")
    print(f"{output}: {written / 1e6:.0f} MB, {copy} copies of {len(events)} events")


if __name__ == "__main__":
    main()
