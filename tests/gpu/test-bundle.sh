#!/usr/bin/env bash
# CI (ctest gpu.bundle): the GPU bundle of bundle.sh, made from this build (with the kit's programs
# where the build has them: CI compiles them anyway; never compiled here) and used in a clean
# environment (`env -i`), so that it cannot rot between the rare sessions that are lent a GPU:
#   - its size (bundle.sh fails above 30 MiB) and the kit's architectures (sm_80, sm_90, sm_100);
#   - every library it needs resolves, and each that a bare Linux lacks from the bundle's lib/
#     (cuBLAS excepted: the kit takes the machine's);
#   - the bundle's ridgeline captures the stand-in CUDA program of tests/capture-e2e (fake libcuda
#     and libcupti.so.13, found through CUDA_HOME like a toolkit) and the session checks;
#   - `ridgeline metrics` through the bundle's ridgeline-cupti-host (CUPTI's host API, no GPU);
#   - pytorch_check.py's comparison against a real Kineto trace (--self-test);
#   - run.sh --bundle, capture-example.sh --bundle and gpu-check.sh stop cleanly with "needs a GPU"
#     here.
# Usage: test-bundle.sh BUILD_DIR E2E_CUDA_ROOT E2E_LIBCUDA E2E_TARGET KINETO_TRACE
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$1 E2E_ROOT=$2 E2E_LIBCUDA=$3 E2E_TARGET=$4 TRACE=$5
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ridgeline-test-bundle.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
B="$WORK/bundle"
fail() {
    echo "test-bundle.sh: FAIL: $*" >&2
    exit 1
}
# clean COMMAND...: in an empty environment but for a PATH with the system's programs.
clean() { env -i PATH=/usr/bin:/bin HOME="$WORK" "$@"; }

command -v patchelf >/dev/null || { echo "test-bundle.sh: SKIP: no patchelf (apt-get install patchelf)"; exit 77; }
kit=(--no-kit)
[[ ! -x "$BUILD/tests/gpu/bin/sgemm" ]] || kit=()
"$HERE/bundle.sh" "${kit[@]}" --no-build "$BUILD" "$B" || fail "bundle.sh"
sed -n '1,6p' "$B/MANIFEST"
if [[ ${#kit[@]} == 0 ]]; then
    for arch in sm_80 sm_90 sm_100; do
        grep -q "^kit: yes; architectures of kit/sgemm: .*\b$arch elf" "$B/MANIFEST" || fail "kit/sgemm has no $arch code"
    done
    for program in "$B"/kit/*; do
        missing=$(clean ldd "$program" | grep 'not found' | grep -v -E 'libcublas(Lt)?\.so' || true)
        [[ -z "$missing" ]] || fail "$(basename "$program") misses $missing"
    done
else
    echo "test-bundle.sh: this build has no GPU kit: the bundle is made without it"
    mkdir -p "$B/kit" # for run.sh --bundle below
fi

# Every ELF file: nothing missing, and no library outside the bundle but the system's core ones
# (and CUPTI for the injection library, which the machine's CUDA gives).
for elf in "$B/bin/ridgeline" "$B"/lib/ridgeline/* "$B"/lib/*.so*; do
    out=$(clean ldd "$elf") || fail "ldd $elf"
    if grep -q 'not found' <<<"$out"; then
        fail "$(basename "$elf") misses libraries: $(grep 'not found' <<<"$out" | tr -s ' \t' ' ')"
    fi
    while read -r name path; do
        [[ "$(readlink -f "$path")" != "$(readlink -f "$B")"/lib/* ]] || continue
        grep -q -E '^(libc|libm|libdl|libpthread|librt|libutil|libstdc\+\+|libgcc_s|libcupti|libnvperf_host)\.so' <<<"$name" \
            || fail "$(basename "$elf") takes $name from outside the bundle: $path"
    done < <(awk '$2 == "=>" { print $1, $3 }' <<<"$out")
done
[[ -n "$(ls "$B"/lib/*.so* 2>/dev/null)" ]] || fail "no library in lib/"

clean "$B/bin/ridgeline" --version || fail "ridgeline --version"

# Capture with the stand-in CUPTI, as the e2e tests do (CUDA_HOME finds it; RIDGELINE_LIBCUDA is
# the stand-in driver for the launcher's probe).
clean CUDA_HOME="$E2E_ROOT" RIDGELINE_LIBCUDA="$E2E_LIBCUDA" RIDGELINE_FAKE_LEDGER="$WORK/ledger.tsv" \
    XDG_CACHE_HOME="$WORK/cache" "$B/bin/ridgeline" capture -o "$WORK/s.ridge" -- "$E2E_TARGET" all \
    || fail "capture of the stand-in program"
clean "$B/bin/ridgeline" check "$WORK/s.ridge" || fail "check of the captured session"
clean "$B/bin/ridgeline" report --format json "$WORK/s.ridge" >"$WORK/s.json" || fail "report"
kernels=$(python3 -c 'import json, sys; print(sum(k["launches"] for k in json.load(open(sys.argv[1]))["kernels"]))' "$WORK/s.json")
((kernels > 0)) || fail "the captured session has no kernel"
echo "test-bundle.sh: capture from the bundle: $kernels kernel launches"

# `ridgeline metrics` through the bundle's ridgeline-cupti-host and this machine's CUPTI host API
# (no GPU needed with --chip), as run.sh's passes check uses it.
if [[ -x "$B/lib/ridgeline/ridgeline-cupti-host" ]]; then
    passes=$(clean "$B/bin/ridgeline" metrics --chip GH100 --format json | python3 -c \
        'import json, sys; print("+".join(str(g["passes"]) for g in json.load(sys.stdin)["config_images"]))') \
        || fail "ridgeline metrics --chip GH100 from the bundle"
    echo "test-bundle.sh: ridgeline metrics from the bundle: GH100 roofline in $passes passes"
fi

# The PyTorch check's comparison, without a GPU: a real trace against its own import.
clean python3 "$B/pytorch_check.py" --ridgeline "$B/bin/ridgeline" --out "$WORK/pytorch" --self-test "$TRACE" \
    || fail "pytorch_check.py --self-test"

# Without a GPU (the real libcuda, or none): run.sh --bundle and gpu-check.sh say so and exit 2.
rc=0
clean OUT="$WORK/out" "$B/run.sh" --bundle "$B" >"$WORK/run.log" 2>&1 || rc=$?
cat "$WORK/run.log"
if [[ $rc != 2 ]] || ! grep -q 'needs a GPU' "$WORK/run.log" || ! grep -q 'needs a GPU' "$WORK/out/kit-table.txt"; then
    fail "run.sh --bundle without a GPU: exit $rc"
fi
rc=0
clean OUT="$WORK/out3" "$B/capture-example.sh" --bundle "$B" >"$WORK/example.log" 2>&1 || rc=$?
cat "$WORK/example.log"
if [[ $rc != 2 ]] || ! grep -q 'needs a GPU' "$WORK/example.log"; then
    fail "capture-example.sh --bundle without a GPU: exit $rc"
fi
rc=0
clean OUT="$WORK/out2" "$B/gpu-check.sh" >"$WORK/check.log" 2>&1 || rc=$?
cat "$WORK/check.log"
if [[ $rc != 2 ]] || ! grep -q 'no GPU' "$WORK/out2/summary.txt"; then
    fail "gpu-check.sh without a GPU: exit $rc"
fi
echo "test-bundle.sh: PASS ($(sed -n 's/^size: //p' "$B/MANIFEST")$([[ ${#kit[@]} == 0 ]] || echo ', no kit'))"
