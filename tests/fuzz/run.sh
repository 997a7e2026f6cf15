#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz: kineto, ncucsv, ncurep, nsys, session, and the row targets
# nsys_rows and session_rows) with clang 14,
# ASan and UBSan in their own build directory, and runs them on seed corpora made from tests/data.
#
#   tests/fuzz/run.sh [BUILD-DIR] [SECONDS]         CI: each target SECONDS (20), fresh corpora,
#                                                   one per core side by side (FUZZ_PARALLEL=N);
#                                                   fails when any target crashed.
#   tests/fuzz/run.sh --long HOURS [BUILD-DIR]      each target HOURS (decimals allowed), one after
#                                                   the other; a crash is kept and fuzzing goes on.
#
# --long keeps its corpora in build-fuzz/fuzz-corpus/<target> (a later run continues from them) and
# its crash inputs in BUILD-DIR/fuzz-crashes/<target>; at the end it prints, per target, the
# executions, executions per second and crashes, and writes the same to BUILD-DIR/fuzz-long.txt.
# FUZZ_TARGETS="nsys session" runs only those; FUZZ_JOBS=N runs N processes per target (libFuzzer
# -fork, sharing one corpus; default 1). A crash input becomes a regression test by being copied
# to tests/fuzz/regressions/<target>/ (ctest replays it: fuzz.replay.<target>).
#
# FUZZ_SANITIZERS=undefined builds without AddressSanitizer (in build-fuzz-ubsan unless BUILD-DIR is
# given): UBSan and libstdc++'s bounds assertions only, three to six times faster on the SQLite
# targets, whose cost under ASan is mostly its allocator. As OSS-Fuzz does with its sanitizer builds,
# both share one corpus: --long keeps it in build-fuzz/fuzz-corpus whichever build runs
# (FUZZ_CORPUS=DIR to change), and a crash found without ASan is replayed under it
# (fuzz_replay_<target> in an ASan build, or the ASan fuzzer with the input as its argument).
set -euo pipefail
cd "$(dirname "$0")/../.."

sanitizers=${FUZZ_SANITIZERS:-address,undefined}
default_build=build-fuzz
[ "$sanitizers" = "address,undefined" ] || default_build=build-fuzz-${sanitizers//,/-}
[ "$sanitizers" != undefined ] || default_build=build-fuzz-ubsan
long_hours=""
if [ "${1:-}" = "--long" ]; then
    long_hours=${2:?--long needs HOURS}
    build=${3:-$default_build}
else
    build=${1:-$default_build}
    seconds=${2:-20}
fi
targets=${FUZZ_TARGETS:-kineto ncucsv ncurep nsys session nsys_rows session_rows}
jobs=${FUZZ_JOBS:-1}

# A build configured for fuzzing already (CI's sanitizer build, `installer/setup.sh --sanitize`, which
# also runs the tests under ASan + UBSan) is used as it is; otherwise this configures its own.
if ! grep -qs '^RIDGELINE_FUZZ:BOOL=ON$' "$build/CMakeCache.txt"; then
    CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIDGELINE_FUZZ=ON \
        -DRIDGELINE_FUZZ_SANITIZERS="$sanitizers" -DRIDGELINE_BUILD_UI=OFF -DRIDGELINE_BUILD_TESTS=OFF \
        -DRIDGELINE_BUILD_BENCHMARKS=OFF -DRIDGELINE_CUDA=OFF >/dev/null
fi
cmake --build "$build" --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done)

# Seeds. libFuzzer adds what it finds to copies, never to tests/data or tests/fuzz.
seeds="$build/fuzz-seeds"
rm -rf "$seeds"
mkdir -p "$seeds"/{kineto,ncucsv,ncurep,nsys,session,nsys_rows,session_rows}
# Kineto: the small traces, gzipped and plain (so that mutations reach the JSON parser).
find tests/data/kineto -name '*.json.gz' -size -8k | while read -r trace; do
    name=$(basename "$trace" .json.gz)
    cp "$trace" "$seeds/kineto/$name.json.gz"
    gzip -dc "$trace" >"$seeds/kineto/$name.json"
done
# ncu CSV: every fixture, and the first 64 KiB (the fuzzer's -max_len) of the real files, plain and
# gzipped, so that mutations reach both the CSV reader and the gzip path.
cp tests/data/ncu/*.csv "$seeds/ncucsv/"
find tests/data/ncu -mindepth 2 \( -name '*.csv' -o -name '*.csv.gz' \) | while read -r real; do
    name=$(basename "$real" .gz)
    full="$seeds/ncucsv/full.tmp"
    if [ "${real%.gz}" != "$real" ]; then gzip -dc "$real" >"$full"; else cp "$real" "$full"; fi
    head -c 65536 "$full" >"$seeds/ncucsv/real-$name"
    head -c 16384 "$full" | gzip -c >"$seeds/ncucsv/real-$name.gz"
    rm "$full"
done
# .ncu-rep: the real reports, and the same without their source blocks (tests/fuzz/seeds: smaller,
# so mutations land in what the importer reads).
cp tests/data/ncu/nersc-gpp/*.ncu-rep tests/fuzz/seeds/ncurep/* "$seeds/ncurep/"
# The SQLite inputs: the trimmed copies of the real exports in tests/fuzz/seeds (make-seeds.sh: six
# rows per table, 512-byte pages, about 30-50 KiB), the real sessions as they are and the seed
# sessions. The whole exports (260 KiB to 1 MiB) are replayed by ctest (fuzz.replay.nsys) instead:
# here every execution would copy and page through them, six times slower.
cp tests/fuzz/seeds/nsys/* "$seeds/nsys/"
cp tests/data/sessions/*.ridge tests/fuzz/seeds/session/* "$seeds/session/"
# The row targets' inputs are edit lists (rowedits.h) of the seed databases above: a few the fuzzer
# kept for their coverage.
cp tests/fuzz/seeds/nsys_rows/* "$seeds/nsys_rows/"
cp tests/fuzz/seeds/session_rows/* "$seeds/session_rows/"
# Every crash found so far: its neighbourhood is worth fuzzing too.
for t in $targets; do
    if [ -d "tests/fuzz/regressions/$t" ]; then cp tests/fuzz/regressions/"$t"/* "$seeds/$t/" 2>/dev/null || true; fi
done

max_len() {
    case $1 in
    kineto | ncucsv) echo 65536 ;;
    # The reports are about 150 KiB, 65 KiB without their source blocks. Inputs over 128 KiB are
    # mapped and unmapped for every execution by AddressSanitizer's allocator (its size classes end
    # there), which made this target four times slower: longer reports are cut to 96 KiB.
    ncurep) echo 98304 ;;
    # Databases: the seeds are up to 160 KiB. A mutated input that holds a long string keeps new
    # coverage (loops run longer), so a larger limit fills the corpus with large inputs that slow
    # every execution; strings of a megabyte are mutated in by the replay test instead
    # (fuzz.mutator.*, whose inputs may grow by 8 MB).
    nsys) echo 131072 ;;
    # Edit lists: 24 edits of at most 75 bytes.
    nsys_rows | session_rows) echo 2048 ;;
    *) echo 196608 ;;
    esac
}

# The session target touched about 30,000 coverage features per input (round 6, before
# coverage-ignorelist.txt): libFuzzer's entropic schedule, which updates a frequency per feature per
# input, then made it six times slower, and the row targets five times. The row targets also keep
# prepared statements from one input to the next, which libFuzzer's leak check after each input
# would take for leaks; a real leak is still reported when the run ends (LeakSanitizer).
extra_flags() {
    case $1 in
    session) echo -entropic=0 ;;
    nsys_rows | session_rows) echo -entropic=0 -detect_leaks=0 ;;
    esac
}

# AddressSanitizer keeps freed memory out of use for a while to catch use after free; its default
# 256 MB quarantine means every allocation is fresh memory the kernel must fault in and zero, a
# third of an SQLite input's time. 32 MB still outlasts an input's own allocations many times over.
export ASAN_OPTIONS="quarantine_size_mb=32${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

stat_of() { # name log...: the sum of libFuzzer's final stat over the logs
    local name=$1
    shift
    cat "$@" 2>/dev/null | awk -v key="stat::$name:" '$1 == key { sum += $2 } END { printf "%d", sum }'
}

# CI: the targets run side by side, one per core (FUZZ_PARALLEL, default nproc), each for its SECONDS
# on a core of its own, so each gets as many executions as it would alone; each log is printed
# whole when its target ends, and the run fails when any target found something.
if [ -z "$long_hours" ]; then
    logs="$build/fuzz-ci"
    rm -rf "$logs"
    mkdir -p "$logs"
    parallel=${FUZZ_PARALLEL:-$(nproc)}
    failed=()
    finish() { # target: prints its log and records a failure
        local t=$1 rc=0
        wait "${pid[$t]}" || rc=$?
        echo "=== fuzz_$t ($([ "$rc" -eq 0 ] && echo "ran ${seconds} s" || echo "FAILED, exit $rc"))"
        cat "$logs/$t.log"
        [ "$rc" -eq 0 ] || failed+=("$t")
    }
    declare -A pid
    running=()
    for t in $targets; do
        if [ "${#running[@]}" -ge "$parallel" ]; then
            finish "${running[0]}"
            running=("${running[@]:1}")
        fi
        echo "fuzzing $t for ${seconds}s"
        "$build/tests/fuzz/fuzz_$t" $(extra_flags "$t") -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=60 -max_len="$(max_len "$t")" \
            -artifact_prefix="$build/" -print_final_stats=1 "$seeds/$t" >"$logs/$t.log" 2>&1 &
        pid[$t]=$!
        running+=("$t")
    done
    for t in "${running[@]}"; do finish "$t"; done
    if [ "${#failed[@]}" -gt 0 ]; then
        echo "fuzz: ${failed[*]} found an input that fails (its crash input is in $build/)" >&2
        exit 1
    fi
    exit 0
fi

# --long: each target for HOURS; after a crash, the fuzzer starts again for the time left.
total=$(awk -v h="$long_hours" 'BEGIN { printf "%d", h * 3600 }')
report="$build/fuzz-long.txt"
printf '%-8s %14s %8s %8s  %s\n' target executions exec/s crashes "crash inputs" | tee "$report"
for t in $targets; do
    corpus="${FUZZ_CORPUS:-build-fuzz/fuzz-corpus}/$t"
    crashes="$build/fuzz-crashes/$t"
    logs="$build/fuzz-logs/$t"
    mkdir -p "$corpus" "$crashes" "$logs"
    cp -n "$seeds/$t"/* "$corpus/" 2>/dev/null || true
    rm -f "$logs"/*
    start=$(date +%s)
    runs=0
    found=0
    while :; do
        left=$((total - ($(date +%s) - start)))
        [ "$left" -ge 5 ] || break
        runs=$((runs + 1))
        log="$logs/run-$runs.log"
        fork=()
        [ "$jobs" -gt 1 ] && fork=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
        set +e
        "$build/tests/fuzz/fuzz_$t" "${fork[@]}" $(extra_flags "$t") -max_total_time="$left" -rss_limit_mb=2048 -timeout=60 \
            -max_len="$(max_len "$t")" -artifact_prefix="$crashes/" -print_final_stats=1 "$corpus" >"$log" 2>&1
        rc=$?
        set -e
        # libFuzzer exits 0 when its time is up; anything else is a crash, a leak, a time-out or an
        # out-of-memory, with its input in the crash directory.
        if [ "$rc" -ne 0 ]; then
            found=$((found + 1))
            echo "$t: run $runs ended with exit status $rc; see $log" >&2
            grep -m3 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY' "$log" >&2 || true
        else
            break
        fi
    done
    elapsed=$(($(date +%s) - start))
    executions=$(stat_of number_of_executed_units "$logs"/*.log)
    if [ "$jobs" -gt 1 ]; then # -fork prints no final stats: the last progress line counts
        executions=$(grep -h -o '^#[0-9]*' "$logs"/*.log | tr -d '#' | sort -n | tail -1)
    fi
    inputs=$(find "$crashes" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    printf '%-8s %14s %8s %8s  %s\n' "$t" "${executions:-0}" $(( ${executions:-0} / (elapsed > 0 ? elapsed : 1) )) \
        "$found" "$inputs in $crashes" | tee -a "$report"
done
echo "corpora: ${FUZZ_CORPUS:-build-fuzz/fuzz-corpus}; copy a crash input to tests/fuzz/regressions/<target>/ once it is fixed"
