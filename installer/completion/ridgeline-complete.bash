
# Completes subcommands, then the options of the subcommand given, the values of options with
# a fixed set of choices, and file names for file arguments. Needs nothing from the
# bash-completion package.
_ridgeline() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]:-} sub="" i
    # --option=value: bash splits at '=' (COMP_WORDBREAKS).
    if [ "$cur" = "=" ]; then
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        cur=""
    elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    fi
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ " $_ridgeline_subcommands " == *" ${COMP_WORDS[i]} "* ]]; then
            sub=${COMP_WORDS[i]}
            break
        fi
    done
    COMPREPLY=()
    local key="${sub:-_} $prev"
    if [[ $prev == -* && -n ${_ridgeline_values[$key]+set} ]]; then
        case "${_ridgeline_values[$key]}" in
            @none) ;;
            @file)
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -f -- "$cur")
                ;;
            *) mapfile -t COMPREPLY < <(compgen -W "${_ridgeline_values[$key]}" -- "$cur") ;;
        esac
        return 0
    fi
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "${_ridgeline_options[${sub:-_}]:-}" -- "$cur")
    elif [ -z "$sub" ]; then
        mapfile -t COMPREPLY < <(compgen -W "$_ridgeline_subcommands" -- "$cur")
    else
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    return 0
}
complete -F _ridgeline ridgeline
