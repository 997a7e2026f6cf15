#!/usr/bin/env bash
# The generated ridgeline(1) documents every subcommand `ridgeline --help` lists with its
# options, and both pages format without groff warnings.
set -euo pipefail
mandir=$1 program=$2
command -v help2man >/dev/null || { echo "SKIP: help2man missing, so no manual pages were built"; exit 77; }
page=$mandir/ridgeline.1.gz
[ -f "$page" ] || { echo "FAIL: $page was not generated"; exit 1; }
text=$(gzip -dc "$page")
failures=0
grep -q '^\.TH RIDGELINE "1"' <<<"$text" || { echo "FAIL: no .TH header"; failures=$((failures + 1)); }
for sub in $("$program" --help | awk '/^Subcommands:/ { on = 1; next } /^[^ ]/ { on = 0 } on && /^  [^ ]/ { print $1 }'); do
    if ! grep -q "^\.SS \"ridgeline $sub\"" <<<"$text"; then
        echo "FAIL: no section for 'ridgeline $sub'"; failures=$((failures + 1)); continue
    fi
    # Each long option of the subcommand appears in the page (roff writes '-' as '\-').
    for opt in $("$program" "$sub" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
        grep -qF -- "${opt//-/\\-}" <<<"$text" || { echo "FAIL: $sub $opt missing"; failures=$((failures + 1)); }
    done
    echo "ok   ridgeline $sub"
done
if command -v groff >/dev/null; then
    for p in "$mandir"/*.1.gz; do
        warnings=$(gzip -dc "$p" | groff -man -Tutf8 -ww -z 2>&1 || true)
        [ -z "$warnings" ] && echo "ok   $(basename "$p") formats cleanly" ||
            { echo "FAIL $(basename "$p"): $warnings"; failures=$((failures + 1)); }
    done
fi
[ "$failures" -eq 0 ] && echo "PASS: manual pages" || exit 1
