#!/usr/bin/env bash
# Sets up a Debian 12 machine for Ridgeline, builds it, and optionally tests or runs it.
# Idempotent: packages already installed are not touched, an existing build is reused.
#
#   installer/setup.sh             install dependencies and build (into ./build)
#   installer/setup.sh --test      ... then run every test (CTest)
#   installer/setup.sh --run [F]   ... then open session F (default: the bundled example)
#   installer/setup.sh --package   ... then build the .deb and .tar.gz into BUILD_DIR/packages/
#   installer/setup.sh --deps      install dependencies only
#
# Options: --build-dir DIR, --sanitize (clang 14 build with ASan + UBSan that also builds the
#          libFuzzer targets), --no-ui (CLI and core only), --werror (default when CI=true).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$here/build"
action=build
session=""
sanitize=OFF
ui=ON
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON

while [ $# -gt 0 ]; do
    case "$1" in
        --test) action=test ;;
        --run) action=run; if [ $# -gt 1 ] && [ "${2#--}" = "$2" ]; then session=$2; shift; fi ;;
        --deps) action=deps ;;
        --package) action=package ;;
        --build-dir) build_dir=$2; shift ;;
        --sanitize) sanitize=ON ;;
        --no-ui) ui=OFF ;;
        --werror) werror=ON ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "setup.sh: unknown option '$1' (see --help)" >&2; exit 1 ;;
    esac
    shift
done

packages=(
    build-essential cmake ninja-build pkg-config git
    libsqlite3-dev sqlite3 libfmt-dev libcli11-dev nlohmann-json3-dev libsimdjson-dev zlib1g-dev libcsv-dev
    libprotobuf-dev protobuf-compiler  # the .ncu-rep importer (libprotobuf-lite at run time)
    libgtest-dev libgmock-dev libbenchmark-dev
    clang-14 libclang-rt-14-dev  # fuzzing in CI: libFuzzer (libclang_rt.fuzzer) is only Recommended by clang-14
    ccache lld  # build speed (docs/CI.md): the compiler cache and a faster linker, used where installed
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libqt6svg6 libqt6sql6-sqlite
    # packages (installer/packaging.cmake) and their tests (installer/test-packages.sh)
    file help2man librsvg2-bin desktop-file-utils shared-mime-info libfile-mimeinfo-perl xdg-utils
    patchelf  # the GPU bundle (tests/gpu/bundle.sh) and its test
)

apt_caller=setup.sh
# shellcheck source=installer/apt.sh
source "$here/installer/apt.sh" # as_root, apt_retry, install_packages

install_dependencies() {
    install_packages "${packages[@]}"
}

configure_and_build() {
    # Line tables and function names (-g1): what a backtrace needs, at two thirds of the compile
    # time of full debug information (docs/CI.md).
    local options=("-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
    if [ "$sanitize" = ON ]; then
        # One clang build runs both the tests under ASan + UBSan and the fuzzers (tests/fuzz/run.sh
        # BUILD_DIR). Line tables are all that sanitizer reports need; -O2 compiles only 5 % slower
        # than -O1 here and fuzzes a third faster (docs/CI.md). No benchmarks and no CUDA programs
        # (nvcc takes no sanitizer): the plain build has both.
        options=(-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DRIDGELINE_FUZZ=ON
                 "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG"
                 "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG"
                 -DRIDGELINE_BUILD_BENCHMARKS=OFF -DRIDGELINE_CUDA=OFF)
    fi
    cmake -S "$here" -B "$build_dir" -G Ninja \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DRIDGELINE_WERROR="$werror" \
        -DRIDGELINE_SANITIZE="$sanitize" \
        -DRIDGELINE_BUILD_UI="$ui" "${options[@]}"
    # --run needs only the two programs it runs; tests, benchmarks and the CUDA kit are built by
    # the other actions.
    local targets=()
    if [ "$action" = run ]; then
        targets=(--target ridgeline)
        [ "$ui" = ON ] && targets+=(ridgeline-ui)
    fi
    cmake --build "$build_dir" --parallel "$(nproc)" "${targets[@]}"
}

install_dependencies
[ "$action" = deps ] && exit 0
configure_and_build

case "$action" in
    package)
        # CPack: DEB and TGZ from this build (docs/PACKAGING.md); old packages are replaced.
        rm -f "$build_dir"/packages/ridgeline[_-]*
        (cd "$build_dir" && cpack -G "DEB;TGZ")
        ls -l "$build_dir"/packages/ridgeline[_-]*
        ;;
    test)
        # GUI tests get QT_QPA_PLATFORM=offscreen from CTest itself.
        exec ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" --timeout 600
        ;;
    run)
        # A session captured on a real GPU once one exists (tests/gpu/capture-example.sh), else the
        # imported examples: real A100 kernels from Nsight Compute on the roofline first
        # (resources/examples/README.md).
        for example in gpu-example a100-linear-ncu pytorch-two-ranks; do
            if [ -z "${session:-}" ] && [ -f "$here/resources/examples/$example.ridge" ]; then
                session="$here/resources/examples/$example.ridge"
            fi
        done
        if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
            exec "$build_dir/bin/ridgeline-ui" "$session"
        fi
        echo "setup.sh: no display here, so this is the session from the command line." >&2
        echo "setup.sh: on a desktop the same command opens it in ridgeline-ui." >&2
        "$build_dir/bin/ridgeline" check "$session"
        exec "$build_dir/bin/ridgeline" report "$session" --top 20
        ;;
esac
