#!/usr/bin/env bash
# Sources the generated completion in a clean bash and completes as a user's TAB would.
set -euo pipefail
completion=$1 program=$2
[ -f "$completion" ] || { echo "FAIL: $completion was not generated"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/run-a.ridge" "$tmp/run-b.ridge" "$tmp/other.json"
cd "$tmp"
env -i PATH="$PATH" bash --norc --noprofile -s "$completion" "$program" <<'TESTS'
set -u
source "$1"
failures=0
complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _ridgeline
    printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | paste -sd ' '; } # file order is the directory's
expect() { # expected -- words...
    local want=$1 got
    shift
    got=$(complete_words "$@")
    if [ "$got" = "$want" ]; then echo "ok   '$*' -> $got"; else echo "FAIL '$*' -> '$got', expected '$want'"; failures=$((failures + 1)); fi
}
expect "report" ridgeline rep
expect "--format" ridgeline report --for
expect "--version" ridgeline --vers
expect "csv json table" ridgeline report --format ""
expect "json" ridgeline report --format = j
expect "run-a.ridge run-b.ridge" ridgeline report run
expect "" ridgeline report --top ""
expect "" ridgeline nosuchcommand --zz
# Every subcommand the program lists completes, and each one's --help option is offered.
for sub in $("$2" --help | awk '/^Subcommands:/ { on = 1; next } /^[^ ]/ { on = 0 } on && /^  [^ ]/ { print $1 }'); do
    expect "$sub" ridgeline "$sub"
    case " $(complete_words ridgeline "$sub" --) " in *" --help "*) ;; *) echo "FAIL $sub: no --help"; failures=$((failures + 1)) ;; esac
done
complete -p ridgeline | grep -q -- "-F _ridgeline" || { echo "FAIL: not registered"; failures=$((failures + 1)); }
[ "$failures" -eq 0 ] && echo "PASS: completion" || exit 1
TESTS
