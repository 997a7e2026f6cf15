#!/usr/bin/env bash
# Builds the GPU bundle: a self-contained folder that runs the GPU kit on a machine that has a GPU,
# CUDA and Python but none of this project's build dependencies (the lent GPU machine: README.md
# here, "When a GPU is lent"). Nothing in it needs cmake, Qt or a compiler there.
#
#   bin/ridgeline                     the CLI, stripped, RUNPATH $ORIGIN/../lib
#   lib/ridgeline/                    libridgeline-inject.so, ridgeline-cupti-host (`ridgeline metrics`)
#   lib/                              the shared libraries a bare Linux lacks (fmt, simdjson, csv,
#                                     protobuf-lite, SQLite, ...); libc, libstdc++, libgcc, libm and
#                                     libcuda stay the system's; CUPTI and cuBLAS the machine's CUDA
#   kit/                              the kit's programs (sm_80, sm_90, sm_100 and their PTX)
#   run.sh capture-example.sh gpu-check.sh bundle-env.sh pytorch_check.py pytorch_prog.py
#   MANIFEST                          commit, date, architectures, sizes
#
# Usage: tests/gpu/bundle.sh [--no-kit] [--no-build] [BUILD_DIR [OUT_DIR]]
#   BUILD_DIR   a configured build (default: build); the needed targets are built there
#   OUT_DIR     default: BUILD_DIR/gpu-bundle (ignored by git: carry it to the GPU machine)
#   --no-kit    leave out the CUDA programs (CI: tests/gpu/test-bundle.sh)
#   --no-build  take what is built (ctest: the test depends on the targets)
# Fails when the bundle is larger than RIDGELINE_BUNDLE_MAX_MIB (default 30: the device tool moves at
# most 64 MiB, the working tree included).
set -euo pipefail

kit=1
build=1
while [[ "${1:-}" == --* ]]; do
    case "$1" in
    --no-kit) kit=0 ;;
    --no-build) build=0 ;;
    *) echo "bundle.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" 2>/dev/null && pwd) || { echo "bundle.sh: no build directory ${1:-$ROOT/build}" >&2; exit 2; }
OUT_DIR=${2:-$BUILD/gpu-bundle}
MAX_MIB=${RIDGELINE_BUNDLE_MAX_MIB:-30}
command -v patchelf >/dev/null || { echo "bundle.sh: needs patchelf (apt-get install patchelf)" >&2; exit 2; }

if [[ $build == 1 ]]; then
    targets=(ridgeline ridgeline-inject)
    optional=(ridgeline-cupti-host) # `ridgeline metrics`; built only where CUPTI was found
    [[ $kit == 0 ]] || optional+=(ridgeline-gpu-kit)
    known=$(cmake --build "$BUILD" --target help 2>/dev/null | sed -n 's/^\([A-Za-z0-9_.-]*\): .*/\1/p')
    for target in "${optional[@]}"; do
        if grep -qx -- "$target" <<<"$known"; then
            targets+=("$target")
        elif [[ $target == ridgeline-gpu-kit ]]; then
            echo "bundle.sh: this build has no GPU kit (needs nvcc and cuBLAS; or use --no-kit)" >&2
            exit 2
        fi
    done
    # One job: the machine is shared (RIDGELINE_BUNDLE_JOBS to change it).
    nice cmake --build "$BUILD" --target "${targets[@]}" -- -j"${RIDGELINE_BUNDLE_JOBS:-1}" >/dev/null \
        || { echo "bundle.sh: build failed" >&2; exit 2; }
fi
[[ $kit == 0 || -x "$BUILD/tests/gpu/bin/sgemm" ]] || { echo "bundle.sh: $BUILD has no GPU kit built (or use --no-kit)" >&2; exit 2; }

rm -rf "$OUT_DIR"
mkdir -p "$OUT_DIR/bin" "$OUT_DIR/lib/ridgeline"
OUT_DIR=$(cd "$OUT_DIR" && pwd)

install -m 755 "$BUILD/bin/ridgeline" "$OUT_DIR/bin/ridgeline"
install -m 755 "$BUILD/lib/libridgeline-inject.so" "$OUT_DIR/lib/ridgeline/"
[[ ! -x "$BUILD/lib/ridgeline-cupti-host" ]] || install -m 755 "$BUILD/lib/ridgeline-cupti-host" "$OUT_DIR/lib/ridgeline/"
if [[ $kit == 1 ]]; then
    mkdir -p "$OUT_DIR/kit"
    for program in "$BUILD"/tests/gpu/bin/*; do
        install -m 755 "$program" "$OUT_DIR/kit/"
    done
fi

# Shared libraries every Linux has (and the driver's libcuda): never shipped. CUPTI, libnvperf and
# cuBLAS are the machine's CUDA's (found at run time: bundle-env.sh).
system_lib() {
    case "$1" in
    linux-vdso.so.* | ld-linux*.so.* | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | \
        libutil.so.* | libstdc++.so.* | libgcc_s.so.* | libcuda.so.* | libcupti.so.* | libnvperf_host.so | libnvperf_target.so | \
        libcublas.so.* | libcublasLt.so.* | libcudart.so.* | libnvidia-*.so.*) return 0 ;;
    esac
    return 1
}
elves=("$OUT_DIR/bin/ridgeline" "$OUT_DIR"/lib/ridgeline/*)
[[ $kit == 0 ]] || elves+=("$OUT_DIR"/kit/*)
for elf in "${elves[@]}"; do
    while read -r name path; do
        system_lib "$name" && continue
        [[ -e "$OUT_DIR/lib/$name" ]] && continue
        [[ "$path" == /* ]] || { echo "bundle.sh: $(basename "$elf") needs $name, which is not found here" >&2; exit 2; }
        install -m 644 "$(readlink -f "$path")" "$OUT_DIR/lib/$name"
    done < <(ldd "$elf" | awk '$2 == "=>" { print $1, $3 }')
done

# Stripped, and found through RUNPATH: bin/ -> ../lib, lib/ridgeline/ -> .., lib/ -> itself. The
# injection library and the host program keep the CUPTI directory of this build after theirs
# (the launcher puts the CUPTI it finds on LD_LIBRARY_PATH, which comes first anyway).
strip --strip-all "$OUT_DIR/bin/ridgeline"
# shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
patchelf --set-rpath '$ORIGIN/../lib' "$OUT_DIR/bin/ridgeline"
for elf in "$OUT_DIR"/lib/ridgeline/*; do
    old=$(patchelf --print-rpath "$elf" | sed 's/::*/:/g; s/^://; s/:$//') # no empty entry (the working directory)
    if [[ "$elf" == *.so ]]; then strip --strip-unneeded "$elf"; else strip --strip-all "$elf"; fi
    patchelf --set-rpath "\$ORIGIN/..${old:+:$old}" "$elf"
done
for lib in "$OUT_DIR"/lib/*.so*; do
    [[ -f "$lib" ]] || continue
    strip --strip-unneeded "$lib"
    # shellcheck disable=SC2016
    patchelf --set-rpath '$ORIGIN' "$lib"
done
if [[ $kit == 1 ]]; then
    for program in "$OUT_DIR"/kit/*; do strip --strip-all "$program"; done
fi

# The scripts: run.sh and capture-example.sh from the same checkout, with the PyTorch check.
for script in run.sh capture-example.sh gpu-check.sh bundle-env.sh pytorch_check.py pytorch_prog.py; do
    install -m 755 "$ROOT/tests/gpu/$script" "$OUT_DIR/$script"
done

# Nothing the bundle needs may be missing where only the system's core libraries are.
missing=$(for elf in "${elves[@]}"; do env -i "$(command -v ldd)" "$elf" | grep 'not found' | grep -v -E \
    'libcupti|libnvperf|libcublas|libcuda\.' || true; done)
[[ -z "$missing" ]] || { echo "bundle.sh: unresolved libraries:" >&2; echo "$missing" >&2; exit 2; }

# The fatbin's entries (machine code: elf, PTX) per architecture, read from its headers (no cuobjdump
# needed): "sm_80 elf sm_80 ptx sm_90 elf ...".
archs=none
if [[ $kit == 1 ]]; then
    archs=$(python3 - "$OUT_DIR/kit/sgemm" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
found = set()
pos = data.find(b"\x50\xed\x55\xba")  # fatbin magic 0xba55ed50
while pos >= 0:
    _, _, header, size = struct.unpack_from("<IHHQ", data, pos)
    p, end = pos + header, pos + header + size
    while p + 32 <= end:
        kind, _, entry_header, entry_size = struct.unpack_from("<HHIQ", data, p)
        if kind in (1, 2) and entry_header >= 32:
            found.add((struct.unpack_from("<I", data, p + 28)[0], "ptx" if kind == 1 else "elf"))
        if entry_header == 0:
            break
        p += entry_header + entry_size
    pos = data.find(b"\x50\xed\x55\xba", max(end, pos + 1))
print(" ".join(f"sm_{a} {k}" for a, k in sorted(found)) or "none found")
PY
    )
fi
size_kib=$(du -sk "$OUT_DIR" | cut -f1)
{
    echo "ridgeline GPU bundle (tests/gpu/bundle.sh)"
    echo "commit: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with local changes)')"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(sed -n 's/^PRETTY_NAME="\(.*\)"/\1/p' /etc/os-release)"
    echo "kit: $([[ $kit == 1 ]] && echo yes || echo no); architectures of kit/sgemm: $archs"
    echo "size: $((size_kib / 1024)) MiB"
    needs=$(for elf in "${elves[@]}" "$OUT_DIR"/lib/*.so*; do objdump -T "$elf" 2>/dev/null; done \
        | grep -o -E '\b(GLIBC|GLIBCXX|CXXABI)_[0-9.]+' | sort -u -V \
        | awk -F_ '{ last[$1] = $0 } END { for (k in last) printf "%s ", last[k] }')
    echo "needs at most: $needs(the machine's libc and libstdc++ must be as new)"
    (cd "$OUT_DIR" && find . -type f ! -name MANIFEST -printf '%s %p\n' | sort -k2)
} >"$OUT_DIR/MANIFEST"

if ((size_kib > MAX_MIB * 1024)); then
    echo "bundle.sh: $OUT_DIR is $((size_kib / 1024)) MiB, more than $MAX_MIB MiB" >&2
    exit 1
fi
echo "bundle.sh: wrote $OUT_DIR ($(awk "BEGIN { printf \"%.1f\", $size_kib / 1024 }") MiB)"
