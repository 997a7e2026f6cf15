#!/usr/bin/env bash
# Rebuilds the bundled example sessions from the real traces in tests/data, with their origin in
# each file's metadata (shown by Help ▸ About and `ridgeline check`). Run after a change to the
# session format or the importers, then commit the .ridge files:
#
#   resources/examples/make-examples.sh [BUILD_DIR]      (default: ./build)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-"$here/build"}
ridgeline="$build/bin/ridgeline"
out="$here/resources/examples"
[ -x "$ridgeline" ] || { echo "make-examples.sh: $ridgeline not built" >&2; exit 1; }
# Inputs by their path in the repository: the importers' warnings name them, and the sessions are
# mailed around, so no path of the machine that made them goes into the files.
cd "$here"

# Adds origin.* keys to a session's meta table (the import has closed the file).
set_origin() {
    local session=$1; shift
    local sql="" key value
    while [ $# -gt 0 ]; do
        key=$1 value=${2//\'/\'\'}; shift 2
        sql+="INSERT OR REPLACE INTO meta(key, value) VALUES ('$key', '$value');"
    done
    sqlite3 "$session" "$sql"
}

# A100, Nsight Compute: 2,933 real launches of PyTorch linear layers with FLOP and byte counters
# and ncu's Speed-of-Light throughputs. The file does not name its GPU: its ampere_* kernels and
# the project's other files (108 SMs, CC 8.0) say A100, and ncu's own DRAM throughput puts the
# DRAM peak at 1.98-2.03 TB/s (bytes / time / gpu__dram_throughput over the 219 launches above
# 30 %), the A100 SXM4 80GB's 2,039 GB/s; so it is named with --gpu.
a100="$out/a100-linear-ncu.ridge"
rm -f "$a100"
"$ridgeline" import tests/data/ncu/leleucas/linear-nsight1381.csv.gz --gpu "NVIDIA A100-SXM4-80GB" -o "$a100"
set_origin "$a100" \
    origin.project "github.com/leleucas/Actual-Parameter-Collection-for-Machine-Learning-Operators" \
    origin.files "linear/nsight1381.csv.zip (here gzip: tests/data/ncu/leleucas/linear-nsight1381.csv.gz)" \
    origin.commit "5c4015a4b33093b97044b61e5f2bdab676b2402b" \
    origin.licence "Apache-2.0" \
    origin.note "Nsight Compute (--csv --page details) on an NVIDIA A100: 2,933 launches of PyTorch linear layers with FLOP and byte counters at DRAM, L2 and L1 and ncu's Speed-of-Light throughputs. The file does not name its GPU; it was imported with --gpu \"NVIDIA A100-SXM4-80GB\": ampere_* kernels, 108 SMs and CC 8.0 in the same project's other files, and ncu's DRAM throughput puts the DRAM peak at 1.98-2.03 TB/s, the SXM4 80GB's 2,039 GB/s."

# Two ranks of a PyTorch profiler (Kineto) trace: the timeline example (no counters).
pt="$out/pytorch-two-ranks.ridge"
rm -f "$pt"
"$ridgeline" import tests/data/kineto/trace_filter/sampled_rank-0.json.gz \
    tests/data/kineto/trace_filter/sampled_rank-1.json.gz -o "$pt"
set_origin "$pt" \
    origin.project "github.com/facebookresearch/HolisticTraceAnalysis" \
    origin.files "tests/data/trace_filter/sampled_rank-0.json.gz, tests/data/trace_filter/sampled_rank-1.json.gz" \
    origin.commit "f4d0062c382f42bd8a74838bcdad1916c7d5d2da" \
    origin.licence "MIT, Copyright (c) Meta Platforms, Inc. and affiliates" \
    origin.note "A real PyTorch profiler (Kineto) trace of ranks 0 and 1 of a 128-rank job; no hardware counters, so its compute kernels are unknown (no counters); the timeline, collectives and host side are all real."

"$ridgeline" check "$a100" >/dev/null
"$ridgeline" check "$pt" >/dev/null
ls -l "$a100" "$pt"
