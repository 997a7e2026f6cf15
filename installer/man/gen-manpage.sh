#!/usr/bin/env bash
# Writes a gzipped manual page from a program's own --help and --version output (help2man):
#   gen-manpage.sh <program> <output.1.gz> <extra sections .h2m> <one-line description> [--subcommands]
# With --subcommands (ridgeline) every subcommand listed by `<program> --help` gets its own
# subsection under COMMANDS, made from `<program> <sub> --help`. ridgeline-ui needs
# QT_QPA_PLATFORM=offscreen in the environment (set by the caller).
set -euo pipefail
# In a sanitizer build the program is instrumented: its --help is what matters here, not leaks.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
program=$1
output=$2
extra=$3
name=$4
subcommands=${5:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
base=$(basename "$program")
version=$("$program" --version 2>/dev/null | head -n 1 | awk '{ print $NF }')

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$extra" "$tmp/include.h2m"

if [ "$subcommands" = "--subcommands" ]; then
    mapfile -t subs < <("$program" --help | awk -f "$here/../clihelp.awk" | awk -F '\t' '$1 == "Subcommands" { print $2 }')
    [ ${#subs[@]} -gt 0 ] || { echo "gen-manpage.sh: no subcommands in '$program --help'" >&2; exit 1; }
    {
        echo "[COMMANDS]"
        echo "Each command has its own options; \\fB$base\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR prints them."
        for sub in "${subs[@]}"; do
            echo ".SS \"$base $sub\""
            help2man --locale=C.UTF-8 --no-info --help-option="$sub --help" --version-string="$base $version" --name=x "$program" |
                awk -f "$here/subsection.awk"
        done
    } >>"$tmp/include.h2m"
fi

help2man --locale=C.UTF-8 --no-info --name="$name" --section=1 --manual="User Commands" --source="Ridgeline $version" \
    --version-string="$base $version" --include="$tmp/include.h2m" --output="$tmp/page.1" "$program"
gzip -9 -n -c "$tmp/page.1" >"$output.tmp"
mv "$output.tmp" "$output"
