#!/usr/bin/env bash
# Installs the MIME type into a temporary XDG_DATA_HOME and asks shared-mime-info (mimetype,
# xdg-mime) what a session is: by name, and by content alone (no .ridge extension); plain
# SQLite databases and near misses must not match.
set -euo pipefail
xml=$1 example=$2
for tool in update-mime-database mimetype sqlite3; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool missing (shared-mime-info, libfile-mimeinfo-perl, sqlite3)"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/data/mime/packages"
cp "$xml" "$tmp/data/mime/packages/"
export XDG_DATA_HOME=$tmp/data
update-mime-database "$tmp/data/mime"

cp "$example" "$tmp/session.ridge"
cp "$example" "$tmp/session-renamed.bin"          # content only
sqlite3 "$tmp/plain-db" "CREATE TABLE t(x);"          # an SQLite file of nobody
sqlite3 "$tmp/other-app" "PRAGMA application_id=1; CREATE TABLE t(x);"
printf 'SQLite format 3\000' >"$tmp/header-only"      # the header string, no application_id
sqlite3 "$tmp/ours-by-content" "PRAGMA application_id=1380206412; CREATE TABLE t(x);" # 0x5244474C

failures=0
expect() { # file expected-type [mimetype options]
    local file=$1 want=$2 got
    shift 2
    got=$(mimetype --brief "$@" "$file")
    if [ "$got" = "$want" ]; then echo "ok   $(basename "$file") $* -> $got"; else
        echo "FAIL $(basename "$file") $*: $got, expected $want"; failures=$((failures + 1)); fi
}
session=application/x-ridgeline-session
expect "$tmp/session.ridge" $session
expect "$tmp/session.ridge" $session --magic-only
expect "$tmp/session-renamed.bin" $session
expect "$tmp/ours-by-content" $session
expect "$tmp/plain-db" application/vnd.sqlite3
expect "$tmp/other-app" application/vnd.sqlite3
[ "$(mimetype --brief "$tmp/header-only")" != $session ] || { echo "FAIL header-only matched"; failures=$((failures + 1)); }
if command -v xdg-mime >/dev/null; then
    got=$(xdg-mime query filetype "$tmp/session-renamed.bin")
    [ "$got" = $session ] && echo "ok   xdg-mime query filetype -> $got" ||
        { echo "FAIL xdg-mime query filetype: $got"; failures=$((failures + 1)); }
fi
[ "$failures" -eq 0 ] || exit 1
echo "PASS: the MIME type matches sessions by name and by content"
