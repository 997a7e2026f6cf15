#!/usr/bin/env bash
# Captures the bundled example session on a real GPU: example_mix.cu (five NVTX-annotated
# training steps: BF16 GEMM, triads, FP32 SGEMM, 200 tiny launches per step, SGD update, copies
# on two streams) under `ridgeline capture --metrics roofline`, writes
# resources/examples/gpu-example.ridge with its origin in the file's metadata (Help ▸ About),
# checks it, prints the report and renders every view for a person to look at.
# Needs a GPU. Usage: tests/gpu/capture-example.sh [BUILD_DIR]   (default: build)
# Then: look at the pictures, record the GPU and date in tests/gpu/RESULTS.md, commit the session;
# `installer/setup.sh --run` opens it instead of the imported PyTorch trace.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" 2>/dev/null && pwd) || { echo "capture-example.sh: no build directory ${1:-$ROOT/build}" >&2; exit 2; }
RIDGELINE="$BUILD/bin/ridgeline"
OUT="$ROOT/resources/examples/gpu-example.ridge"
PICTURES="${PICTURES:-$ROOT/build/example-pictures}"

cmake --build "$BUILD" --target ridgeline ridgeline-ui ridgeline-inject kit_example_mix >/dev/null \
    || { echo "capture-example.sh: build failed" >&2; exit 2; }
devices=$("$RIDGELINE" devices --json) || { "$RIDGELINE" devices; echo "capture-example.sh: needs a GPU" >&2; exit 2; }
gpu=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["gpus"][0]["name"])' <<<"$devices")

"$RIDGELINE" capture --metrics roofline --force -o "$OUT" -- "$BUILD/tests/gpu/bin/example_mix"

commit=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
python3 - "$OUT" "$gpu" "$commit" <<'PY'
import datetime, sqlite3, sys
path, gpu, commit = sys.argv[1:4]
today = datetime.date.today().isoformat()
meta = {
    "origin.project": "Ridgeline: tests/gpu/example_mix.cu, captured by tests/gpu/capture-example.sh",
    "origin.files": "tests/gpu/example_mix.cu",
    "origin.commit": commit,
    "origin.licence": "MIT (Ridgeline)",
    "origin.note": f"Captured on a real {gpu} on {today} with ridgeline capture --metrics roofline; "
                   "the counters are measured, not made up.",
}
db = sqlite3.connect(path)
db.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", meta.items())
db.commit()
PY

"$RIDGELINE" check "$OUT"
"$RIDGELINE" report "$OUT" --top 12
mkdir -p "$PICTURES"
for view in table roofline timeline details; do
    QT_QPA_PLATFORM=offscreen "$BUILD/bin/ridgeline-ui" --screenshot "$PICTURES/$view.png" --view "$view" "$OUT"
done
echo "capture-example.sh: wrote $OUT ($(du -h "$OUT" | cut -f1)) on $gpu; pictures in $PICTURES"
