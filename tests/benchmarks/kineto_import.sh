#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Kineto import benchmark (docs/PERFORMANCE.md): a ~1 GB trace made from a real one, imported by
# Ridgeline and merely parsed by Python's json.load, both measured in this one run; prints a
# Markdown table with wall time, CPU time, peak RSS and the ratios the issue sets targets for
# (import >= 5x faster than json.load; peak memory below the uncompressed file size).
# Usage: tests/benchmarks/kineto_import.sh [BUILD_DIR] [WORK_DIR] [SIZE_MB]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
work=${2:-/tmp/ridgeline-kineto-bench}
size_mb=${3:-1000}
source_trace=tests/data/kineto/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz
mkdir -p "$work"
big=$work/big.json
if [[ ! -s $big ]]; then
    python3 tests/tools/make_big_kineto.py "$source_trace" "$big" "$size_mb" >&2
fi
[[ -s $big.gz ]] || gzip -1 -k "$big"

# Runs a command under /usr/bin/time; prints "wall cpu peak_kb".
measure() {
    local out
    out=$(mktemp)
    /usr/bin/time -f '%e %U %S %M' -o "$out" "$@" >/dev/null 2>&1 || {
        echo "benchmark command failed: $*" >&2
        exit 1
    }
    awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$out"
    rm -f "$out"
}

bytes=$(stat -c %s "$big")
printf 'file: %s (%d MB uncompressed, %d MB gzip); %s cores; load before: %s\n' "$big" \
    $((bytes / 1000000)) $(($(stat -c %s "$big.gz") / 1000000)) "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
read -r py_wall py_cpu py_kb < <(measure python3 -c "import json; json.load(open('$big'))")
read -r pygz_wall pygz_cpu pygz_kb < <(measure python3 -c "import json,gzip; json.load(gzip.open('$big.gz'))")
rm -f "$work/big.ridge" "$work/big-gz.ridge"
read -r rl_wall rl_cpu rl_kb < <(measure "$build/bin/ridgeline" import "$big" -o "$work/big.ridge")
read -r rlgz_wall rlgz_cpu rlgz_kb < <(measure "$build/bin/ridgeline" import "$big.gz" -o "$work/big-gz.ridge")

echo
echo '| command | wall s | CPU s (user+sys) | peak RSS MB |'
echo '|---|---|---|---|'
printf '| `ridgeline import big.json` | %s | %s | %d |\n' "$rl_wall" "$rl_cpu" $((rl_kb / 1000))
printf '| `ridgeline import big.json.gz` | %s | %s | %d |\n' "$rlgz_wall" "$rlgz_cpu" $((rlgz_kb / 1000))
printf '| `python3 json.load(open(big.json))` | %s | %s | %d |\n' "$py_wall" "$py_cpu" $((py_kb / 1000))
printf '| `python3 json.load(gzip.open(big.json.gz))` | %s | %s | %d |\n' "$pygz_wall" "$pygz_cpu" $((pygz_kb / 1000))
echo
awk -v a="$py_wall" -v b="$rl_wall" -v c="$pygz_wall" -v d="$rlgz_wall" \
    'BEGIN { printf "speed-up over json.load (wall): plain %.1fx, gzip %.1fx (target >= 5x)\n", a / b, c / d }'
awk -v kb="$rl_kb" -v kbgz="$rlgz_kb" -v bytes="$bytes" \
    'BEGIN { printf "peak RSS / file size: plain %.2f, gzip %.2f (target < 1)\n", kb * 1024 / bytes, kbgz * 1024 / bytes }'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
