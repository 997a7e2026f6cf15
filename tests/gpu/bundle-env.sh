#!/usr/bin/env bash
# Sourced by the kit's scripts (run.sh, capture-example.sh, gpu-check.sh; here and in the bundle of
# bundle.sh): finds what a bundle leaves to the machine: CUPTI 13 (with libnvperf_host.so) for
# `ridgeline capture`, cuBLAS for the kit's two cuBLAS programs, and ncu. Sets CUDA_HOME (only where
# the launcher's own search would find no CUPTI), LD_LIBRARY_PATH (only where the kit misses
# cuBLAS), NCU, and prints one line per finding. Defines bundle_counters_probe.
# Usage: . bundle-env.sh KIT_DIR   (the kit's programs: BUNDLE/kit or BUILD/tests/gpu/bin)

bundle_env_kit=$1

# The roots the launcher searches (collectors/launch/cuptilocate.cpp), in its order.
bundle_cupti_root() {
    local root sub
    for root in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda /usr/local/cuda-* /opt/cuda; do
        [[ -n "$root" && -d "$root" ]] || continue
        for sub in lib64 lib targets/x86_64-linux/lib extras/CUPTI/lib64 extras/CUPTI/lib; do
            if [[ -f "$root/$sub/libcupti.so.13" ]]; then
                echo "$root"
                return 0
            fi
        done
    done
    return 1
}

# Site-packages of the python3 here (PyTorch's CUDA wheels: nvidia/cu13/lib, nvidia/*/lib).
bundle_python_libdirs() {
    command -v python3 >/dev/null || return 0
    python3 - "$1" <<'PY' 2>/dev/null
import glob, os, site, sys
roots = list(site.getsitepackages()) + [site.getusersitepackages()]
seen = set()
for root in roots:
    for path in sorted(glob.glob(os.path.join(root, "nvidia", "**", sys.argv[1]), recursive=True)):
        d = os.path.dirname(os.path.realpath(path))
        if d not in seen:
            seen.add(d)
            print(d)
PY
}

if root=$(bundle_cupti_root); then
    echo "bundle-env: CUPTI 13 in $root"
else
    for dir in $(bundle_python_libdirs 'libcupti.so.13'); do
        # The launcher takes a root and looks in its lib/: the wheel's nvidia/cu13 (or .../cuda_cupti).
        export CUDA_HOME=${dir%/lib}
        echo "bundle-env: CUPTI 13 from the Python wheels: CUDA_HOME=$CUDA_HOME"
        [[ -f "$dir/libnvperf_host.so" ]] || echo "bundle-env: no libnvperf_host.so beside it: trace only"
        break
    done
    [[ -n "${CUDA_HOME:-}" ]] || echo "bundle-env: no CUPTI 13 found (CUDA_HOME, /usr/local/cuda*, Python wheels)"
fi

if [[ -x "$bundle_env_kit/gemm_bf16" ]] && ldd "$bundle_env_kit/gemm_bf16" | grep -q 'libcublas.*not found'; then
    for dir in $(bundle_python_libdirs 'libcublas.so.13') /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
        if [[ -f "$dir/libcublas.so.13" ]]; then
            export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
            echo "bundle-env: cuBLAS 13 from $dir"
            break
        fi
    done
fi

NCU=$(command -v ncu || true)
if [[ -z "$NCU" ]]; then
    for candidate in /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/nsight-compute*/ncu; do
        if [[ -x "$candidate" ]]; then
            NCU=$candidate
            break
        fi
    done
fi
export NCU
echo "bundle-env: ncu: ${NCU:-not found}"

# bundle_counters_probe PROGRAM LOG: can this machine's counters be read? Asks ncu once (one launch
# of PROGRAM); where the profiler library cannot be loaded (gVisor) it fails, and so would the
# counter capture. Sets COUNTERS=1|0 and NO_COUNTERS (why not). RIDGELINE_KIT_COUNTERS=0|1 decides
# instead (and RIDGELINE_KIT_NO_COUNTERS says why). Without ncu: 1 (tried).
bundle_counters_probe() {
    COUNTERS=${RIDGELINE_KIT_COUNTERS:-auto}
    NO_COUNTERS=""
    if [[ "$COUNTERS" == auto ]]; then
        COUNTERS=1
        if [[ -n "$NCU" ]]; then
            timeout -k 5 120 "$NCU" --metrics dram__bytes.sum --launch-count 1 "$1" >"$2" 2>&1
            if grep -q -E '==ERROR==|LibraryNotLoaded|ERR_NVGPUCTRPERM' "$2" || ! grep -q 'dram__bytes.sum' "$2"; then
                COUNTERS=0
                NO_COUNTERS="ncu cannot read counters here: $(grep -m1 -E '==ERROR==|LibraryNotLoaded|ERR_' "$2" || tail -1 "$2")"
            fi
        fi
    elif [[ "$COUNTERS" == 0 ]]; then
        NO_COUNTERS=${RIDGELINE_KIT_NO_COUNTERS:-RIDGELINE_KIT_COUNTERS=0}
    fi
    export RIDGELINE_KIT_COUNTERS=$COUNTERS RIDGELINE_KIT_NO_COUNTERS=$NO_COUNTERS
}
