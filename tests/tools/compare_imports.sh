#!/bin/bash
# Imports every trace and report of a folder with two ridgeline binaries and compares what a user
# sees of each pair of sessions: `check`, every `report --by` (JSON), and the CSV and Perfetto
# exports. Sessions must be the same in content, whatever their bytes (issue 38: the import got
# faster, its sessions must not change).
#   tests/tools/compare_imports.sh OLD_RIDGELINE NEW_RIDGELINE DATA_DIR [WORK_DIR]
# Exit 0 when every file gives the same output with both (files both refuse count as the same).
set -u
old=$1 new=$2 data=$3 work=${4:-$(mktemp -d)}
mkdir -p "$work"
differ=0 same=0
# What differs from run to run: the time a session was written and where it lies. With
# COMPARE_ANY_SCHEMA=1, also the schema version the two builds write (content compared across a
# schema change).
stamp='s/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z/TIME/g'
if [ "${COMPARE_ANY_SCHEMA:-0}" = 1 ]; then
    stamp="$stamp; s/\"schema_version\": [0-9]+/\"schema_version\": N/; s/schema: +v[0-9]+ \(current\)/schema: vN (current)/"
fi
strip() { sed -E "$stamp; s#$work/[ab]/#DIR/#g"; }
while IFS= read -r -d '' input; do
    case "$input" in *.md|*.txt|*LICENSE*|*.py) continue ;; esac
    for side in a b; do
        exe=$old; [ $side = b ] && exe=$new
        dir=$work/$side; rm -rf "$dir"; mkdir -p "$dir"
        if "$exe" import "$input" -o "$dir/s.ridge" >"$dir/import.out" 2>&1; then
            {
                "$exe" check "$dir/s.ridge" 2>&1
                for by in kernel op module shape collective; do
                    "$exe" report "$dir/s.ridge" --by $by --format json 2>&1
                done
            } | strip >"$dir/out.txt"
            "$exe" export "$dir/s.ridge" --csv "$dir/csv" --perfetto "$dir/trace.json" >/dev/null 2>&1
            find "$dir/csv" "$dir/trace.json" -type f -exec sed -i -E "$stamp; s#$work/[ab]/#DIR/#g" {} + 2>/dev/null
        else
            echo "refused" >"$dir/out.txt"
        fi
        strip <"$dir/import.out" >"$dir/import.txt"
    done
    if cmp -s "$work/a/out.txt" "$work/b/out.txt" && cmp -s "$work/a/import.txt" "$work/b/import.txt" \
        && diff -rq "$work/a/csv" "$work/b/csv" >/dev/null 2>&1 \
        && cmp -s "$work/a/trace.json" "$work/b/trace.json" 2>/dev/null; then
        same=$((same + 1))
    elif [ "$(cat "$work/a/out.txt")" = refused ] && [ "$(cat "$work/b/out.txt")" = refused ]; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "DIFFERENT: $input"
        diff "$work/a/import.txt" "$work/b/import.txt" | head -5
        diff "$work/a/out.txt" "$work/b/out.txt" | head -10
        diff -r "$work/a/csv" "$work/b/csv" 2>&1 | head -5
    fi
done < <(find -L "$data" -type f -print0 | sort -z)
echo "$same the same, $differ different"
[ "$differ" -eq 0 ]
