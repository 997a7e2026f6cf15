#!/usr/bin/env bash
# Tests the built packages as a user gets them (CI: root on a fresh Debian 12 machine).
#
#   installer/test-packages.sh [PACKAGE_DIR]     default: build/packages (setup.sh --package)
#
# .deb: installs it with apt, runs `ridgeline --version`, `ridgeline report` on the installed
# example and `ridgeline-ui --screenshot` offscreen, checks the MIME type (by name and by
# content), the desktop entry as the default application, completion, manual pages and that
# neither program needs CUDA; then purges it and checks that nothing is left (no file, no
# package it pulled in). Needs root; without root that part is skipped (and says so).
# .tar.gz: unpacked into a fresh directory with a space in its name, run from another cwd.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
package_dir=$(cd "${1:-$here/build/packages}" && pwd)
failures=0
tmp=$(mktemp -d)
installed_by_us=false

pass() { echo "test-packages: ok   $*"; }
fail() { echo "test-packages: FAIL $*" >&2; failures=$((failures + 1)); }
check() { # description command... : the command must succeed
    local what=$1
    shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}
only_one() { # pattern: the single file in the package directory matching it
    local matches=("$package_dir"/$1)
    [ ${#matches[@]} -eq 1 ] && [ -f "${matches[0]}" ] ||
        { echo "test-packages: expected one $1 in $package_dir, found: ${matches[*]}" >&2; exit 1; }
    echo "${matches[0]}"
}

deb=$(only_one 'ridgeline_*.deb')
tarball=$(only_one 'ridgeline-*.tar.gz')
version=$(dpkg-deb -f "$deb" Version)
version=${version%-*}
example_name=pytorch-two-ranks.ridge
session_type=application/x-ridgeline-session

cleanup() {
    if $installed_by_us; then
        echo "test-packages: removing the test installation" >&2
        dpkg --purge ridgeline >/dev/null 2>&1 || true
        remove_pulled_in_packages || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT

installed_packages() { dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" { print $2 }' | sort; }
remove_pulled_in_packages() {
    local pulled
    pulled=$(comm -13 "$tmp/packages-before" <(installed_packages))
    [ -z "$pulled" ] || DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $pulled >/dev/null
}

# Runs the installed or unpacked programs: version, report, check, screenshot.
run_programs() { # label bin-dir example
    local label=$1 bin=$2 example=$3 out
    out=$("$bin/ridgeline" --version)
    check "$label: ridgeline --version prints '$out'" test "$out" = "ridgeline $version"
    if out=$("$bin/ridgeline" report "$example" --top 5); then
        check "$label: ridgeline report on the example: $(head -n 1 <<<"$out" | cut -d: -f2-)" \
            grep -Eq "launches of [1-9][0-9,]* kernels" <<<"$out"
    else
        fail "$label: ridgeline report on the example exited $?"
    fi
    check "$label: ridgeline check on the example" "$bin/ridgeline" check "$example" >/dev/null
    if [ -x "$bin/ridgeline-ui" ]; then
        rm -f "$tmp/shot.png"
        QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=$tmp "$bin/ridgeline-ui" --screenshot "$tmp/shot.png" "$example" \
            2>"$tmp/ui.log" || { fail "$label: ridgeline-ui --screenshot exited $?"; cat "$tmp/ui.log" >&2; }
        check "$label: ridgeline-ui --screenshot wrote a PNG ($(stat -c %s "$tmp/shot.png" 2>/dev/null || echo 0) bytes)" \
            bash -c '[ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a ]' _ "$tmp/shot.png"
    fi
}

# Neither program needs CUDA, every library resolves, and no RPATH points anywhere.
check_linkage() { # label files...
    local label=$1 file deps
    shift
    for file in "$@"; do
        deps=$(ldd "$file")
        check "$label: $(basename "$file") resolves every library" bash -c '! grep -q "not found" <<<"$1"' _ "$deps"
        check "$label: $(basename "$file") needs no CUDA (libcuda, libcupti, libnvperf)" \
            bash -c '! grep -Eq "libcuda|libcupti|libnvperf" <<<"$1"' _ "$deps"
        check "$label: $(basename "$file") has no RPATH/RUNPATH" bash -c '! readelf -d "$1" | grep -Eq "RPATH|RUNPATH"' _ "$file"
    done
}

depends_names() { tr ',|' '\n\n' <<<"$depends" | awk '{ print $1 }' | grep -qxF -- "$1"; }

# Every library a program links directly comes from a package that Depends names (so the Qt
# modules it uses -- Charts once a view draws with it -- cannot be missing from the list).
owner_of() { # library path -> its Debian package (trying the /lib and /usr/lib names of usrmerge)
    local path=$1 alt
    case "$path" in /usr/lib/*) alt=${path#/usr} ;; /lib/*) alt=/usr$path ;; *) alt=$path ;; esac
    { dpkg -S "$path" 2>/dev/null || dpkg -S "$alt" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null; } |
        head -n 1 | cut -d: -f1
}
check_depends_cover() { # files...
    local file soname path owner
    for file in "$@"; do
        for soname in $(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
            path=$(ldd "$file" | awk -v so="$soname" '$1 == so && $2 == "=>" { print $3 }')
            # The dynamic loader is listed by its absolute path, without "=>".
            [ -n "$path" ] || path=$(ldd "$file" | awk -v so="$soname" '$1 ~ "/" so "$" { print $1 }')
            owner=$(owner_of "$path" || true)
            if [ -z "$owner" ]; then fail "$(basename "$file"): $soname ($path) belongs to no package"; continue; fi
            check "$(basename "$file") needs $soname: Depends names $owner" depends_names "$owner"
        done
    done
}

# ---- static checks of the .deb ----------------------------------------------------------------
depends=$(dpkg-deb -f "$deb" Depends)
echo "test-packages: Depends: $depends"
for pkg in libqt6core6 libqt6gui6 libqt6widgets6 libqt6svg6 libsqlite3-0; do
    check "Depends names $pkg" depends_names "$pkg"
done
check "Depends names no CUDA package" bash -c '! grep -Eqi "cuda|cupti|nvidia" <<<"$1"' _ "$depends"
contents=$(dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|')
for path in /usr/bin/ridgeline /usr/lib/ridgeline/libridgeline-inject.so /usr/share/ridgeline/examples/$example_name \
    /usr/share/applications/ridgeline.desktop /usr/share/mime/packages/ridgeline.xml \
    /usr/share/icons/hicolor/scalable/apps/ridgeline.svg /usr/share/icons/hicolor/48x48/apps/ridgeline.png \
    /usr/share/man/man1/ridgeline.1.gz /usr/share/bash-completion/completions/ridgeline; do
    check "the .deb holds $path" grep -qx "$path" <<<"$contents"
done

# ---- install the .deb, use it, remove it ------------------------------------------------------
if [ "$(id -u)" -ne 0 ]; then
    echo "test-packages: SKIPPED installing the .deb (needs root)" >&2
elif dpkg-query -W -f '${Status}' ridgeline 2>/dev/null | grep -q "install ok installed"; then
    echo "test-packages: ridgeline is installed on this machine already; not touching it" >&2
    exit 1
else
    installed_packages >"$tmp/packages-before"
    cp "$deb" "$tmp/" # apt reads local packages as user _apt
    chmod 644 "$tmp/$(basename "$deb")"
    chmod 755 "$tmp"
    installed_by_us=true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$tmp/$(basename "$deb")" \
        >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get install of the .deb"; exit 1; }
    pass "apt-get install $(basename "$deb")"
    check "ridgeline on PATH is /usr/bin/ridgeline" test "$(command -v ridgeline)" = /usr/bin/ridgeline
    example=/usr/share/ridgeline/examples/$example_name
    pushd "$tmp" >/dev/null
    run_programs "deb" /usr/bin "$example"
    popd >/dev/null
    check_linkage "deb" /usr/bin/ridgeline /usr/bin/ridgeline-ui
    check_depends_cover /usr/bin/ridgeline /usr/bin/ridgeline-ui

    # MIME type (shared-mime-info's dpkg trigger) and the desktop entry (desktop-file-utils').
    cp "$example" "$tmp/sent-without-extension"
    if command -v xdg-mime >/dev/null; then
        check "xdg-mime: a .ridge file is $session_type" test "$(xdg-mime query filetype "$example")" = $session_type
        check "xdg-mime: a session without extension is $session_type (by content)" \
            test "$(xdg-mime query filetype "$tmp/sent-without-extension")" = $session_type
        check "xdg-mime: ridgeline.desktop opens $session_type" \
            test "$(xdg-mime query default $session_type)" = ridgeline.desktop
    else
        fail "xdg-mime missing (xdg-utils)"
    fi
    check "the MIME database knows $session_type" test -f /usr/share/mime/application/x-ridgeline-session.xml
    check "bash completes 'ridgeline rep' to 'report'" bash -c \
        'source /usr/share/bash-completion/completions/ridgeline; COMP_WORDS=(ridgeline rep); COMP_CWORD=1; _ridgeline; [ "${COMPREPLY[*]}" = report ]'
    for page in ridgeline ridgeline-ui; do
        check "manual page $page(1)" bash -c 'gzip -dc "$1" | grep -q "^\.TH"' _ /usr/share/man/man1/$page.1.gz
    done

    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq ridgeline >"$tmp/apt.log" 2>&1 ||
        { cat "$tmp/apt.log" >&2; fail "apt-get purge ridgeline"; }
    remove_pulled_in_packages
    installed_by_us=false
    pass "apt-get purge ridgeline"
    for path in /usr/bin/ridgeline /usr/bin/ridgeline-ui /usr/lib/ridgeline /usr/share/ridgeline /usr/share/doc/ridgeline \
        /usr/share/applications/ridgeline.desktop /usr/share/mime/packages/ridgeline.xml \
        /usr/share/mime/application/x-ridgeline-session.xml /usr/share/bash-completion/completions/ridgeline \
        /usr/share/man/man1/ridgeline.1.gz /usr/share/icons/hicolor/scalable/apps/ridgeline.svg; do
        check "removed: $path" test ! -e "$path"
    done
    check "no package left behind" cmp -s "$tmp/packages-before" <(installed_packages)
    if command -v xdg-mime >/dev/null; then
        check "the MIME database forgot $session_type" \
            test "$(xdg-mime query filetype "$tmp/sent-without-extension")" != $session_type
        check "no desktop entry is left for $session_type" test -z "$(xdg-mime query default $session_type)"
    fi
fi

# ---- the tarball runs from wherever it is unpacked --------------------------------------------
unpack="$tmp/any dir $RANDOM"
mkdir -p "$unpack"
tar -xzf "$tarball" -C "$unpack"
top=("$unpack"/ridgeline-*)
check "the tarball has one top directory" test ${#top[@]} -eq 1 -a -d "${top[0]}"
check "the tarball holds lib/ridgeline/libridgeline-inject.so" test -f "${top[0]}/lib/ridgeline/libridgeline-inject.so"
pushd / >/dev/null
run_programs "tar.gz" "${top[0]}/bin" "${top[0]}/share/ridgeline/examples/$example_name"
popd >/dev/null
check_linkage "tar.gz" "${top[0]}/bin/ridgeline"

if [ "$failures" -ne 0 ]; then
    echo "test-packages: $failures check(s) failed" >&2
    exit 1
fi
echo "test-packages: all checks passed ($(basename "$deb"), $(basename "$tarball"))"
