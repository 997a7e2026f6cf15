#!/usr/bin/env bash
# Reports over many ranks (issue 19, docs/PERFORMANCE.md "Thousands of ranks"): makes N rank traces
# from the real trace_filter pair (make_ranks.py: new ranks and clock offsets, one rank 500 ms late),
# imports them into one session each (`import -o DIR/`, all cores), then times `report --by rank`
# over the sessions, first analysing each one (--fresh), then from the summaries `summarize` stored.
# Prints wall time and peak RSS (GNU time) of each step.
#
#   tests/benchmarks/ranks.sh BUILD_DIR WORK_DIR N [N ...]      e.g. build /tmp/ranks 64 256 1024
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 work=$2
shift 2
ridgeline="$build/bin/ridgeline"
measure() { # label, command...
    local label=$1
    shift
    /usr/bin/time -f "$label: %e s wall, %M KB peak RSS" "$@" >/dev/null 2>"$work/time.txt" || {
        cat "$work/time.txt" >&2
        exit 1
    }
    tail -n 1 "$work/time.txt"
}
for n in "$@"; do
    traces="$work/traces-$n" sessions="$work/sessions-$n"
    rm -rf "$traces" "$sessions"
    python3 "$here/make_ranks.py" "$traces" "$n" >/dev/null
    echo "== $n ranks ($(du -sh "$traces" | cut -f1) of traces)"
    measure "import -o DIR/ ($(nproc) at once)" "$ridgeline" import "$traces"/rank-*.json.gz -o "$sessions/"
    echo "   sessions: $(du -sh "$sessions" | cut -f1)"
    measure "report --by rank --fresh (analyses every session)" "$ridgeline" report "$sessions" --by rank --fresh --format json
    measure "summarize" "$ridgeline" summarize "$sessions"
    measure "report --by rank (stored summaries)" "$ridgeline" report "$sessions" --by rank --format json
    "$ridgeline" report "$sessions" --by rank --format json | python3 -c \
        'import json,sys; d=json.load(sys.stdin); s=d["slow_ranks"][:1]; print("   slowest rank:", s, "of", d["cluster"]["ranks"], "ranks")'
done
