#!/usr/bin/env bash
# Builds the libFuzzer targets with clang 14 in their own build directory and runs each one
# briefly on a seed corpus made from tests/data. Usage: tests/fuzz/run.sh [build-dir] [seconds]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-fuzz}
seconds=${2:-20}

CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIDGELINE_FUZZ=ON \
    -DRIDGELINE_BUILD_UI=OFF -DRIDGELINE_BUILD_TESTS=OFF -DRIDGELINE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$build" --target fuzz_kineto fuzz_ncucsv fuzz_ncurep

# Seeds: the small Kineto traces, gzipped and plain (so that mutations reach the JSON parser), and
# every ncu CSV fixture. libFuzzer adds what it finds to these copies, never to tests/data.
seeds="$build/fuzz-seeds"
rm -rf "$seeds"
mkdir -p "$seeds/kineto" "$seeds/ncu" "$seeds/ncurep"
find tests/data/kineto -name '*.json.gz' -size -8k | while read -r trace; do
    name=$(basename "$trace" .json.gz)
    cp "$trace" "$seeds/kineto/$name.json.gz"
    gzip -dc "$trace" >"$seeds/kineto/$name.json"
done
cp tests/data/ncu/*.csv "$seeds/ncu/"
# The real ncu files (tests/data/ncu/*/): their first 64 KiB (the fuzzer's -max_len), plain and
# gzipped, so that mutations reach both the CSV reader and the gzip path.
find tests/data/ncu -mindepth 2 \( -name '*.csv' -o -name '*.csv.gz' \) | while read -r real; do
    name=$(basename "$real" .gz)
    full="$seeds/ncu/full.tmp"
    if [ "${real%.gz}" != "$real" ]; then gzip -dc "$real" >"$full"; else cp "$real" "$full"; fi
    head -c 65536 "$full" >"$seeds/ncu/real-$name"
    head -c 16384 "$full" | gzip -c >"$seeds/ncu/real-$name.gz"
    rm "$full"
done
cp tests/data/ncu/nersc-gpp/*.ncu-rep "$seeds/ncurep/"

for target in kineto ncucsv ncurep; do
    corpus=$seeds/kineto
    [ "$target" = ncucsv ] && corpus=$seeds/ncu
    [ "$target" = ncurep ] && corpus=$seeds/ncurep
    # The reports are about 150 KiB: let inputs be that long.
    max_len=65536
    [ "$target" = ncurep ] && max_len=262144
    echo "fuzzing $target for ${seconds}s"
    "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len="$max_len" -artifact_prefix="$build/" \
        -print_final_stats=1 "$corpus"
done
