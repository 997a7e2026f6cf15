#!/usr/bin/env bash
# Writes every output of the CLI for every real file in a data folder, so that a refactoring can be
# shown to change none of them: run it with the build before and after, then `diff -r` the two
# folders. Paths and write times are masked; everything else must be byte-identical.
#
#   tests/tools/golden-outputs.sh RIDGELINE DATA_DIR OUT_DIR
#
# RIDGELINE is the ridgeline program; DATA_DIR holds the traces and reports (e.g. ../shared/data or
# tests/data); OUT_DIR is created (emptied first). Per input file it writes the import's messages,
# check (text and JSON), the reports (kernels as table, CSV and JSON; by operator, module,
# collective; the timeline), and the exports (Perfetto, CSV tables, HTML); one `report --by rank`
# covers all of them.
set -uo pipefail

ridgeline=$(realpath "${1:?RIDGELINE}")
data=$(realpath "${2:?DATA_DIR}")
out=${3:?OUT_DIR}
rm -rf "$out"
mkdir -p "$out"
out=$(realpath "$out")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# mask FILE: the temporary folder, the data folder, and dates and times of day (write times).
mask() {
    sed -i -E -e "s#$work#WORK#g" -e "s#$data#DATA#g" \
        -e 's#[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})?#TIME#g' "$1"
}

# run NAME COMMAND...: stdout and stderr to NAME.out, the exit status on its last line.
run() {
    local name=$1
    shift
    "$@" >"$out/$name.out" 2>&1
    echo "exit $?" >>"$out/$name.out"
    mask "$out/$name.out"
}

sessions=()
while IFS= read -r input; do
    rel=${input#"$data"/}
    key=${rel//\//__}
    session="$work/$key.ridge"
    run "$key.import" "$ridgeline" import "$input" -o "$session"
    [ -f "$session" ] || continue
    sessions+=("$session")
    run "$key.check" "$ridgeline" check "$session"
    run "$key.check-json" "$ridgeline" check --json "$session"
    for format in table csv json; do
        run "$key.report-$format" "$ridgeline" report "$session" --format "$format" --names full
    done
    for by in op module collective; do
        run "$key.report-by-$by" "$ridgeline" report "$session" --by "$by" --format json
    done
    run "$key.export" "$ridgeline" export "$session" --perfetto "$work/$key.perfetto.json" \
        --html "$work/$key.html" --csv "$work/$key.csv"
    for file in "$work/$key.perfetto.json" "$work/$key.html"; do
        [ -f "$file" ] && mv "$file" "$out/" && mask "$out/$(basename "$file")"
    done
    if [ -d "$work/$key.csv" ]; then
        mv "$work/$key.csv" "$out/"
        for file in "$out/$key.csv"/*; do mask "$file"; done
    fi
done < <(find "$data" -type f \( -name '*.json.gz' -o -name '*.json' -o -name '*.csv' -o -name '*.csv.gz' \
    -o -name '*.ncu-rep' -o -name '*.sqlite' \) -not -path '*_reference/*' | sort)

if [ ${#sessions[@]} -gt 0 ]; then
    run all.report-by-rank "$ridgeline" report --by rank --format json --fresh "${sessions[@]}"
fi
echo "golden-outputs: ${#sessions[@]} sessions, $(find "$out" -type f | wc -l) files in $out"
