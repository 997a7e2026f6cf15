#!/usr/bin/env bash
# Writes the bash completion of `ridgeline` from the program's own --help output, so that new
# subcommands and options appear without editing anything:
#   gen-completion.sh <path to ridgeline> <output file>
# The output is the data found (subcommands, options, option values) followed by the static
# completion function (ridgeline-complete.bash beside this script).
set -euo pipefail
# In a sanitizer build the program is instrumented: its --help is what matters here, not leaks.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
program=$1
output=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
parse() { awk -f "$here/../clihelp.awk"; }

# The value an option takes: its choices, "@file" (a path), "@none" (a number) or nothing (a flag).
value_kind() {
    local spec=$1 type=${1%% *}
    case "$type" in
        "" | Excludes: | Needs: | "(Env:"*) return ;;
    esac
    if [[ $spec =~ \{([^}]*)\} ]]; then
        echo "${BASH_REMATCH[1]//,/ }"
    elif [[ $type =~ ^(INT|UINT|FLOAT|NUMBER) ]]; then
        echo "@none"
    else
        echo "@file"
    fi
}

# All option names of one --help text, and `[sub opt]=value` entries for those taking a value.
emit_options() {
    local sub=$1 help=$2 section names spec name kind
    local -a all=()
    while IFS=$'\t' read -r section names spec; do
        [[ $names == -* ]] || continue
        kind=$(value_kind "$spec")
        IFS=, read -r -a split <<<"$names"
        for name in "${split[@]}"; do
            all+=("$name")
            [ -n "$kind" ] && printf "    [%q]=%q\n" "$sub $name" "$kind" >>"$values"
        done
    done < <(parse <<<"$help")
    printf "    [%q]=%q\n" "$sub" "${all[*]}" >>"$options"
}

top=$("$program" --help)
mapfile -t subcommands < <(parse <<<"$top" | awk -F '\t' '$1 == "Subcommands" { print $2 }')
if [ ${#subcommands[@]} -eq 0 ]; then
    echo "gen-completion.sh: no subcommands in '$program --help'" >&2
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
options=$tmp/options values=$tmp/values
: >"$options" >"$values"
emit_options _ "$top" # "_": before any subcommand
for sub in "${subcommands[@]}"; do
    emit_options "$sub" "$("$program" "$sub" --help)"
done

{
    echo "# bash completion for ridgeline -- generated from 'ridgeline --help' at build time"
    echo "# (installer/completion/gen-completion.sh); do not edit."
    printf "_ridgeline_subcommands=%q\n" "${subcommands[*]}"
    echo "declare -gA _ridgeline_options=("
    cat "$options"
    echo ")"
    echo "declare -gA _ridgeline_values=("
    cat "$values"
    echo ")"
    cat "$here/ridgeline-complete.bash"
} >"$output.tmp"
mv "$output.tmp" "$output"
