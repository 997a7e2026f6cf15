#!/usr/bin/env bash
# The desktop entry passes desktop-file-validate and names the MIME type the MIME file defines.
set -euo pipefail
desktop=$1 mime=$2
command -v desktop-file-validate >/dev/null || { echo "SKIP: desktop-file-validate (desktop-file-utils) missing"; exit 77; }
desktop-file-validate "$desktop"
type=$(sed -n 's/.*<mime-type type="\([^"]*\)".*/\1/p' "$mime")
[ "$type" = "application/x-ridgeline-session" ] || { echo "FAIL: MIME file defines '$type'"; exit 1; }
grep -qx "MimeType=$type;" "$desktop" || { echo "FAIL: $desktop does not list $type"; exit 1; }
grep -qx "Exec=ridgeline-ui %f" "$desktop" || { echo "FAIL: $desktop does not open a file with ridgeline-ui"; exit 1; }
echo "PASS: $desktop is valid and opens $type"
