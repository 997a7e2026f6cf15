#!/usr/bin/env bash
# Everything the GPU bundle checks, in one call on a lent GPU machine (README.md here, "When a GPU
# is lent"): the machine's facts, the captured example (capture-example.sh --bundle), the PyTorch
# check (pytorch_check.py), one `ncu --set roofline -o` report of the kit's sgemm and the kit
# (run.sh --bundle), the longest, last. Runs from the bundle itself: BUNDLE/gpu-check.sh [PART...]
#   PART: example pytorch roofline kit (default: all, in that order; the facts always)
# Writes at most 8 files to $OUT (what the device tool brings back), or to a temporary folder:
#   gpu-check.log, summary.txt, kit-table.txt, kit.tar.gz, pytorch.tar.gz, gpu-example.ridge,
#   roofline.ncu-rep
# GPU_CHECK_BUDGET_S (default 420): the whole call's aim; the kit starts no ncu comparison after
# what is left of it less 120 s (RIDGELINE_KIT_BUDGET_S, at least 60 s, decides instead when set).
# Exit 0 when no part failed, 1 when one did, 2 when there is no GPU.
set -uo pipefail

BUNDLE=$(cd "$(dirname "$0")" && pwd)
RIDGELINE="$BUNDLE/bin/ridgeline"
[[ -x "$RIDGELINE" && -d "$BUNDLE/kit" ]] || { echo "gpu-check.sh: run the copy in a bundle (tests/gpu/bundle.sh)" >&2; exit 2; }
export OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/ridgeline-gpu-check.XXXXXX")}
mkdir -p "$OUT"
exec > >(tee "$OUT/gpu-check.log") 2>&1
parts=("$@")
[[ ${#parts[@]} -gt 0 ]] || parts=(example pytorch roofline kit)
START=$(date +%s)
SUMMARY="$OUT/summary.txt"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ridgeline-gpu-check-work.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
failed=0

# result PART STATUS TEXT: one line of summary.txt.
result() {
    printf '%-9s %-5s %s\n' "$1" "$2" "$3" | tee -a "$SUMMARY"
    [[ "$2" != FAIL ]] || failed=1
}
elapsed() { echo "$(($(date +%s) - START)) s"; }

echo "== facts"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)"
    echo "kernel: $(uname -r) ($([[ "$(uname -r)" == 4.4.0 ]] && echo gVisor || echo not gVisor))"
    echo "python: $(python3 -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1 | tail -1)"
    sed -n '2,5p' "$BUNDLE/MANIFEST" | sed 's/^/bundle /'
} | tee "$SUMMARY"
# shellcheck source=tests/gpu/bundle-env.sh
. "$BUNDLE/bundle-env.sh" "$BUNDLE/kit"
echo "ncu: ${NCU:-none} $([[ -z "$NCU" ]] || "$NCU" --version 2>&1 | tail -1)" | tee -a "$SUMMARY"
if ! "$RIDGELINE" devices >"$WORK/devices.txt" 2>&1; then
    cat "$WORK/devices.txt"
    result devices FAIL "ridgeline devices: no GPU ($(elapsed))"
    exit 2
fi
sed 's/^/devices: /' "$WORK/devices.txt" | head -6 | tee -a "$SUMMARY"
bundle_counters_probe "$BUNDLE/kit/stream_triad" "$WORK/ncu-probe.txt"
if [[ "$COUNTERS" == 1 ]]; then
    echo "counters: readable" | tee -a "$SUMMARY"
else
    echo "counters: none ($NO_COUNTERS)" | tee -a "$SUMMARY"
fi
metrics=roofline
[[ "$COUNTERS" == 1 ]] || metrics=none

for part in "${parts[@]}"; do
    echo "== $part ($(elapsed))"
    case "$part" in
    facts) ;;
    kit)
        budget=$((${GPU_CHECK_BUDGET_S:-420} - $(date +%s) + START - 120))
        ((budget >= 60)) || budget=60
        RIDGELINE_KIT_BUDGET_S=${RIDGELINE_KIT_BUDGET_S:-$budget} "$BUNDLE/run.sh" --bundle "$BUNDLE"
        rc=$?
        line=$(tail -1 "$OUT/kit-table.txt" 2>/dev/null)
        if [[ $rc == 0 ]]; then result kit PASS "$line ($(elapsed))"; else result kit FAIL "exit $rc: $line ($(elapsed))"; fi
        ;;
    pytorch)
        dir="$WORK/pytorch"
        python3 "$BUNDLE/pytorch_check.py" --ridgeline "$RIDGELINE" --out "$dir" --metrics "$metrics"
        rc=$?
        tar -czf "$OUT/pytorch.tar.gz" -C "$WORK" pytorch
        line=$(tail -1 "$dir/pytorch-table.txt" 2>/dev/null)
        if [[ $rc == 0 ]]; then result pytorch PASS "$line ($(elapsed))"; else result pytorch FAIL "exit $rc: $line ($(elapsed))"; fi
        ;;
    example)
        # In a folder of its own (capture's part files), then the session alone to $OUT.
        mkdir -p "$WORK/example"
        OUT="$WORK/example" RIDGELINE_EXAMPLE_METRICS=$metrics "$BUNDLE/capture-example.sh" --bundle "$BUNDLE"
        rc=$?
        cp "$WORK/example/gpu-example.ridge" "$OUT/" 2>/dev/null || rc=${rc/#0/3}
        if [[ $rc == 0 ]]; then
            result example PASS "gpu-example.ridge, $(du -k "$OUT/gpu-example.ridge" | cut -f1) KiB, --metrics $metrics ($(elapsed))"
        else
            result example FAIL "capture-example.sh exit $rc ($(elapsed))"
        fi
        ;;
    roofline)
        if [[ "$COUNTERS" != 1 || -z "$NCU" ]]; then
            result roofline SKIP "no counters or no ncu: ${NO_COUNTERS:-ncu not found}"
            continue
        fi
        # A test .ncu-rep to commit: sgemm's six launches (naive and tiled), roofline section set.
        timeout -k 10 180 "$NCU" --set roofline --launch-count 6 -f -o "$OUT/roofline" "$BUNDLE/kit/sgemm" \
            >"$WORK/roofline.log" 2>&1
        rc=$?
        if [[ $rc != 0 && $rc != 124 ]]; then # an ncu without the roofline set: its sections by name
            echo "gpu-check.sh: ncu --set roofline: exit $rc ($(tail -1 "$WORK/roofline.log")); by sections"
            timeout -k 10 180 "$NCU" --section SpeedOfLight --section SpeedOfLight_RooflineChart \
                --section SpeedOfLight_HierarchicalSingleRooflineChart --launch-count 6 -f -o "$OUT/roofline" \
                "$BUNDLE/kit/sgemm" >>"$WORK/roofline.log" 2>&1
            rc=$?
        fi
        tail -3 "$WORK/roofline.log"
        if [[ $rc == 0 && -f "$OUT/roofline.ncu-rep" ]] \
            && "$RIDGELINE" import --force "$OUT/roofline.ncu-rep" -o "$WORK/roofline.ridge" \
            && "$RIDGELINE" report "$WORK/roofline.ridge"; then
            result roofline PASS "roofline.ncu-rep, $(du -k "$OUT/roofline.ncu-rep" | cut -f1) KiB, imports ($(elapsed))"
        else
            result roofline FAIL "ncu exit $rc, or the report does not import ($(elapsed))"
        fi
        ;;
    *) result "$part" FAIL "no such part (example pytorch roofline kit)" ;;
    esac
done
echo "== done ($(elapsed))"
cat "$SUMMARY"
exit "$failed"
