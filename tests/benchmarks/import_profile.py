#!/usr/bin/env python3
"""Where an import's CPU time goes, by stage: samples `perf record` took of one run of
`ridgeline import`, grouped by the function they fell in (issue 38, docs/PERFORMANCE.md).

    perf record -F 1999 -o /tmp/import.perf ridgeline import big.json -o /tmp/big.ridge
    tests/benchmarks/import_profile.py /tmp/import.perf

Prints each stage's share of the samples and, from the run's CPU seconds when given
(--cpu-seconds, e.g. user + sys of /usr/bin/time), its seconds.
"""
import argparse
import re
import subprocess
import sys

# First match wins; patterns are searched in the symbol (and its library).
STAGES = [
    ("split: finding whole events in the text", r"valueEndIn|stringEnd|containerEnd|Splitter::|kinetosplit"),
    ("read: copying the file in, batches out", r"rep_movs|copy_to_iter|filemap|memmove|memcpy|ksys_read|vfs_read"),
    ("parse: simdjson stage 1 (structure)", r"dom_parser_implementation::stage1|libsimdjson"),
    ("parse: events, args, numbers", r"oneEvent|readOperatorArgs|readArgs|operatorArg|readInt|microsToNs|from_chars|"
     r"unquoted|isScalar|classify|equalsIgnoreCase|to_json_string|Parser::|readDim3|tokenInt|memcmp|operator==|"
     r"unescapeJsonString|keyOf|fieldOf|simdjson::|TraceOperator|TraceKernel|Args::|substr|communicationKernel|strlen"),
    ("strings: interning operators' strings", r"Hashtable|_Hash_bytes|StringTable|internString|_M_find"),
    ("operators: nesting and packing", r"OperatorNesting|ByteStream|sortKeys|nestThread|__merge|__introsort|"
     r"__adjust_heap|__insertion_sort|nestOperators|encodeOperatorChunk|OperatorRow|KeyBlocks|OperatorPacker|packOperators"),
    ("verdicts", r"deviceRoofs|chooseCeilings|selectCeilings|analyzeKernel|kernelVerdicts|launchFacts|metricValue|Ceiling|"
     r"latencyHint|toVerdict|_Rb_tree"),
    ("SQLite: rows, indexes, file", r"sqlite3|libsqlite3|bindThreadRecord|pwrite|fsync|ext4|Statement::|valuesOf"),
    ("memory: allocation, page faults", r"malloc|_int_free|cfree|free@|_int_malloc|consolidate|page_fault|"
     r"clear_page|unmap|munmap|mmap|memset|unlink_chunk|do_anonymous_page|folio"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", help="perf.data of one import")
    parser.add_argument("--cpu-seconds", type=float, help="the run's user + sys seconds")
    args = parser.parse_args()
    report = subprocess.run(["perf", "report", "-i", args.data, "--no-children", "--sort", "dso,sym", "-g", "none",
                             "--percent-limit", "0", "--stdio"], capture_output=True, text=True, check=True).stdout
    shares = {name: 0.0 for name, _ in STAGES}
    other = 0.0
    for line in report.splitlines():
        m = re.match(r"\s*([0-9.]+)%\s+(.*)", line)
        if not m:
            continue
        percent, symbol = float(m.group(1)), m.group(2)
        for name, pattern in STAGES:
            if re.search(pattern, symbol):
                shares[name] += percent
                break
        else:
            other += percent
    rows = list(shares.items()) + [("other", other)]
    for name, percent in rows:
        seconds = f"  {args.cpu_seconds * percent / 100:6.3f} s" if args.cpu_seconds else ""
        print(f"{percent:6.1f} %{seconds}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
