#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The GPU bundle's PyTorch check: `ridgeline capture -- python3 pytorch_prog.py` with
torch.profiler running in the same process; then the capture and the Kineto trace must hold the
same kernels with the same launch counts, and the trace must import (`ridgeline import`, `check`).

If the trace of the shared run holds no kernel, or the two disagree (two CUPTI clients in one
process), the program is also run twice apart (captured alone, profiled alone) and those two are
compared: the shared run's rows stay in the table, so the conflict shows.

Usage:
  pytorch_check.py --ridgeline BIN/ridgeline --out DIR [--metrics roofline|none] [--steps N]
  pytorch_check.py --ridgeline BIN/ridgeline --out DIR --self-test TRACE.json[.gz]
      no GPU: compares a real Kineto trace with its own import as if that were the capture (must
      pass), then with one kernel launch left out of the trace (must fail); exit 0 when both do.
Writes DIR/pytorch-table.txt; exit 0 when no check fails.
"""
import argparse
import collections
import gzip
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load_trace(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        return json.load(f)


def kineto_kernels(trace):
    """Kernel launches per name in a Kineto trace (complete events of category kernel)."""
    counts = collections.Counter()
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    for e in events:
        if isinstance(e, dict) and str(e.get("cat", "")).lower() == "kernel" and e.get("ph") == "X":
            counts[e.get("name", "")] += 1
    return counts


def report_kernels(report):
    """Kernel launches per name in `ridgeline report --format json` (summed over devices)."""
    counts = collections.Counter()
    for k in report.get("kernels", []):
        counts[k["name"]] += k["launches"]
    return counts


def normalise(name):
    name = re.sub(r"\s+", "", name)
    return name[4:] if name.startswith("void") else name


def base(name):
    """The function's name without template arguments, parameters, namespaces or 'void'."""
    name = re.sub(r"^void\s+", "", name.strip())
    depth, out = 0, []
    for c in name:
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out).split("::")[-1].strip()


def keyed(counts, key):
    out = collections.Counter()
    for name, n in counts.items():
        out[key(name)] += n
    return out


def compare(label, ours, theirs, ours_label, theirs_label):
    """Rows: the same kernels, the same launch counts (names matched exactly, then without
    whitespace; if only the base names agree, the names differ and the row says so)."""
    rows = []
    if not sum(ours.values()) or not sum(theirs.values()):
        return [(f"{label}: kernels recorded", "> 0 in each",
                 f"{sum(ours.values())} in {ours_label}, {sum(theirs.values())} in {theirs_label}", False)]
    for how, key in (("names", lambda n: n), ("names without spaces", normalise)):
        a, b = keyed(ours, key), keyed(theirs, key)
        if set(a) == set(b):
            rows.append((f"{label}: same kernels", f"{len(b)} in {theirs_label}",
                         f"{len(a)} in {ours_label} ({how})", True))
            diff = {n: (a[n], b[n]) for n in a if a[n] != b[n]}
            rows.append((f"{label}: same launch counts", f"{sum(b.values())} launches",
                         f"{sum(a.values())} launches" + (f"; differ: {describe(diff)}" if diff else ""),
                         not diff))
            return rows
    a, b = keyed(ours, base), keyed(theirs, base)
    only_ours = sorted(set(keyed(ours, normalise)) - set(keyed(theirs, normalise)))
    only_theirs = sorted(set(keyed(theirs, normalise)) - set(keyed(ours, normalise)))
    same_base = set(a) == set(b) and all(a[n] == b[n] for n in a)
    rows.append((f"{label}: same kernels", f"{len(theirs)} in {theirs_label}",
                 f"{len(ours)} in {ours_label}; only in {ours_label}: {short(only_ours)}; only in "
                 f"{theirs_label}: {short(only_theirs)}"
                 + ("; the base names and their counts agree: the names differ" if same_base else ""), False))
    diff = {n: (a[n], b[n]) for n in set(a) | set(b) if a[n] != b[n]}
    rows.append((f"{label}: same launch counts (base names)", f"{sum(b.values())} launches",
                 f"{sum(a.values())} launches" + (f"; differ: {describe(diff)}" if diff else ""), not diff))
    return rows


def short(names, limit=3):
    names = [n if len(n) <= 60 else n[:57] + "..." for n in names]
    return ", ".join(names[:limit]) + (f" and {len(names) - limit} more" if len(names) > limit else "") or "none"


def describe(diff, limit=3):
    items = sorted(diff.items())
    text = ", ".join(f"{base(n) or n}: {x} vs {y}" for n, (x, y) in items[:limit])
    return text + (f" and {len(items) - limit} more" if len(items) > limit else "")


def run(cmd, log, timeout=180):
    start = time.monotonic()
    with open(log, "w") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        try:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            rc = 124
    return rc, time.monotonic() - start


def ridgeline_report(ridgeline, session, out_json, log):
    with open(out_json, "w") as f, open(log, "a") as err:
        rc = subprocess.run([ridgeline, "report", "--format", "json", session], stdout=f, stderr=err).returncode
    if rc != 0:
        return None
    with open(out_json) as f:
        return json.load(f)


def import_trace(args, trace, name, rows, label="Kineto trace"):
    """`ridgeline import` and `check` of a Kineto trace; the imported session's report."""
    session = os.path.join(args.out, f"{name}.ridge")
    log = os.path.join(args.out, f"{name}.import.log")
    rc, _ = run([args.ridgeline, "import", "--force", trace, "-o", session], log)
    if rc == 0:
        rc, _ = run([args.ridgeline, "check", session], os.path.join(args.out, f"{name}.check.log"))
    rows.append((f"{label} imports (ridgeline import, check)", "exit 0", f"exit {rc}", rc == 0))
    if rc != 0:
        return None
    return ridgeline_report(args.ridgeline, session, os.path.join(args.out, f"{name}.report.json"), log)


def session_status(path):
    import sqlite3
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        meta = dict(db.execute("SELECT key, value FROM meta"))
        return meta.get("status", "?"), meta.get("capture.warning", "")
    except Exception as e:  # noqa: BLE001 - reported in the table
        return f"unreadable ({e})", ""


def capture(args, name, trace, rows):
    """One capture of pytorch_prog.py (with torch.profiler writing `trace` when given)."""
    session = os.path.join(args.out, f"{name}.ridge")
    cmd = [args.ridgeline, "capture", "--force", "--metrics", args.metrics, "-o", session, "--",
           sys.executable, os.path.join(HERE, "pytorch_prog.py"), "--steps", str(args.steps)]
    if trace:
        cmd += ["--trace", trace]
    rc, seconds = run(cmd, os.path.join(args.out, f"{name}.log"))
    status, warning = session_status(session)
    rows.append((f"{'shared run' if name == 'shared' else 'apart'}: capture exit status, session", "0, complete",
                 f"{rc}, {status} ({seconds:.1f} s){'; ' + warning[:120] if warning else ''}",
                 rc == 0 and status == "complete"))
    if rc != 0:
        return None
    return ridgeline_report(args.ridgeline, session, os.path.join(args.out, f"{name}.report.json"),
                            os.path.join(args.out, f"{name}.log"))


def gpu_check(args):
    rows = []
    shared_trace = os.path.join(args.out, "kineto-shared.json")
    report = capture(args, "shared", shared_trace, rows)
    trace = load_trace(shared_trace) if os.path.exists(shared_trace) else {"traceEvents": []}
    kineto = kineto_kernels(trace)
    rows.append(("shared run: torch.profiler recorded kernels under capture", "> 0", sum(kineto.values()),
                 sum(kineto.values()) > 0))
    ours = report_kernels(report) if report else collections.Counter()
    shared_ok = False
    if report and kineto:
        shared = compare("shared run: capture vs Kineto", ours, kineto, "capture", "Kineto")
        rows += shared
        shared_ok = all(r[3] for r in shared)
        imported = import_trace(args, shared_trace, "kineto-shared.import", rows, "shared run: Kineto trace")
        if imported:
            rows += compare("shared run: capture vs imported Kineto", ours, report_kernels(imported),
                            "capture", "import")
    if not shared_ok:
        # Apart: the capture alone, torch.profiler alone.
        alone = capture(args, "alone", None, rows)
        alone_trace = os.path.join(args.out, "kineto-alone.json")
        rc, _ = run([sys.executable, os.path.join(HERE, "pytorch_prog.py"), "--steps", str(args.steps),
                     "--trace", alone_trace], os.path.join(args.out, "kineto-alone.log"))
        rows.append(("apart: torch.profiler alone", "exit 0", f"exit {rc}", rc == 0))
        if alone and rc == 0:
            rows += compare("apart: capture vs Kineto", report_kernels(alone), kineto_kernels(load_trace(alone_trace)),
                            "capture", "Kineto")
            imported = import_trace(args, alone_trace, "kineto-alone.import", rows, "apart: Kineto trace")
            if imported:
                rows += compare("apart: capture vs imported Kineto", report_kernels(alone),
                                report_kernels(imported), "capture", "import")
    return rows


def self_test(args):
    """No GPU: a real trace against its own import, then against the trace minus one launch."""
    rows = []
    trace = load_trace(args.self_test)
    kineto = kineto_kernels(trace)
    imported = import_trace(args, args.self_test, "self-test", rows)
    if not imported:
        return rows, False
    ours = report_kernels(imported)
    good = compare("self-test: import vs Kineto", ours, kineto, "import", "Kineto")
    rows += good
    # One launch fewer, a kernel renamed: the comparison must see each.
    name = max(kineto, key=kineto.get)
    fewer = collections.Counter(kineto)
    fewer[name] -= 1
    renamed = collections.Counter(kineto)
    renamed["renamedKernel"] = renamed.pop(name)
    for what, theirs in (("one launch fewer", +fewer), ("a kernel renamed", renamed)):
        caught = [r for r in compare("self-test", ours, theirs, "import", "Kineto") if not r[3]]
        rows.append((f"self-test: the comparison sees {what}", "a failing row",
                     f"{caught[0][0]}: {caught[0][2]}" if caught else "none failed", bool(caught)))
    return rows, all(r[3] for r in rows)


def table(rows):
    head = ("check", "expected", "measured", "result")
    cells = [head] + [(r[0], str(r[1]), str(r[2]), "PASS" if r[3] else "FAIL") for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(4)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(cell, widths)).rstrip() for cell in cells]
    failed = sum(not r[3] for r in rows)
    lines.append(f"\n{len(rows) - failed} of {len(rows)} PyTorch checks passed, {failed} failed")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ridgeline", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--metrics", default="roofline")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--self-test", metavar="TRACE")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.self_test:
        rows, ok = self_test(args)
    else:
        rows = gpu_check(args)
        ok = all(r[3] for r in rows)
    text = table(rows)
    sys.stdout.write(text)
    with open(os.path.join(args.out, "pytorch-table.txt"), "w") as f:
        f.write(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
