#!/usr/bin/env bash
# Captures the bundled example session on a real GPU: example_mix.cu (five NVTX-annotated
# training steps: BF16 GEMM, triads, FP32 SGEMM, 200 tiny launches per step, SGD update, copies
# on two streams) under `ridgeline capture --metrics roofline`, writes
# resources/examples/gpu-example.ridge with its origin in the file's metadata (Help ▸ About),
# checks it, prints the report and renders every view for a person to look at.
# Needs a GPU. Usage: tests/gpu/capture-example.sh [BUILD_DIR]   (default: build)
#                     tests/gpu/capture-example.sh --bundle DIR   (tests/gpu/bundle.sh: no cmake, no
#                     ridgeline-ui: writes $OUT/gpu-example.ridge, or a temporary folder's, no pictures)
# Then: look at the pictures, record the GPU and date in tests/gpu/RESULTS.md, commit the session;
# `installer/setup.sh --run` opens it instead of the imported PyTorch trace.
set -euo pipefail

if [[ "${1:-}" == --bundle ]]; then
    BUNDLE=$(cd "${2:?capture-example.sh: --bundle needs a directory}" 2>/dev/null && pwd) \
        || { echo "capture-example.sh: no bundle directory $2" >&2; exit 2; }
    RIDGELINE="$BUNDLE/bin/ridgeline"
    EXAMPLE="$BUNDLE/kit/example_mix"
    SESSION="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/ridgeline-example.XXXXXX")}/gpu-example.ridge"
    PICTURES=""
    commit=$(sed -n 's/^commit: \([0-9a-f]*\).*/\1/p' "$BUNDLE/MANIFEST")
    if [[ -z "${NCU+set}" ]]; then # not yet sourced (by gpu-check.sh)
        # shellcheck source=tests/gpu/bundle-env.sh
        . "$BUNDLE/bundle-env.sh" "$BUNDLE/kit" >/dev/null
    fi
else
    ROOT=$(cd "$(dirname "$0")/../.." && pwd)
    BUILD=$(cd "${1:-$ROOT/build}" 2>/dev/null && pwd) || { echo "capture-example.sh: no build directory ${1:-$ROOT/build}" >&2; exit 2; }
    RIDGELINE="$BUILD/bin/ridgeline"
    EXAMPLE="$BUILD/tests/gpu/bin/example_mix"
    SESSION="$ROOT/resources/examples/gpu-example.ridge"
    PICTURES="${PICTURES:-$ROOT/build/example-pictures}"
    commit=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
    cmake --build "$BUILD" --target ridgeline ridgeline-ui ridgeline-inject kit_example_mix >/dev/null \
        || { echo "capture-example.sh: build failed" >&2; exit 2; }
fi
devices=$("$RIDGELINE" devices --json) || { "$RIDGELINE" devices || true; echo "capture-example.sh: needs a GPU" >&2; exit 2; }
gpu=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["gpus"][0]["name"])' <<<"$devices")

# Where the counters cannot be read (RIDGELINE_EXAMPLE_METRICS=none), a trace-only example.
metrics=${RIDGELINE_EXAMPLE_METRICS:-roofline}
"$RIDGELINE" capture --metrics "$metrics" --force -o "$SESSION" -- "$EXAMPLE"

python3 - "$SESSION" "$gpu" "$commit" "$metrics" <<'PY'
import datetime, sqlite3, sys
path, gpu, commit, metrics = sys.argv[1:5]
today = datetime.date.today().isoformat()
meta = {
    "origin.project": "Ridgeline: tests/gpu/example_mix.cu, captured by tests/gpu/capture-example.sh",
    "origin.files": "tests/gpu/example_mix.cu",
    "origin.commit": commit,
    "origin.licence": "MIT (Ridgeline)",
    "origin.note": f"Captured on a real {gpu} on {today} with ridgeline capture --metrics {metrics}; "
                   + ("the counters are measured, not made up." if metrics != "none" else "trace only, no counters."),
}
db = sqlite3.connect(path)
db.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", meta.items())
db.commit()
PY

"$RIDGELINE" check "$SESSION"
"$RIDGELINE" report "$SESSION" --top 12
if [[ -z "$PICTURES" ]]; then
    echo "capture-example.sh: wrote $SESSION ($(du -h "$SESSION" | cut -f1)) on $gpu; no pictures (the bundle has no ridgeline-ui)"
    exit 0
fi
mkdir -p "$PICTURES"
for view in table roofline timeline details; do
    QT_QPA_PLATFORM=offscreen "$BUILD/bin/ridgeline-ui" --screenshot "$PICTURES/$view.png" --view "$view" "$SESSION"
done
echo "capture-example.sh: wrote $SESSION ($(du -h "$SESSION" | cut -f1)) on $gpu; pictures in $PICTURES"
