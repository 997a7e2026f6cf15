#!/usr/bin/env bash
# Remakes the committed seeds of the two SQLite fuzz targets (tests/fuzz/seeds/): sessions imported
# from real traces in tests/data, and trimmed copies of the real Nsight Systems exports. Small
# inputs fuzz faster, so each is cut to a few dozen rows per table and rewritten with 1 KiB pages
# (VACUUM); the full files are added to the corpus by run.sh as they are.
# The .ncu-rep seeds are the real reports without their source blocks (the kernels' SASS, 60 % of
# each file, which the importer skips unread).
# Usage: tests/fuzz/make-seeds.sh path/to/ridgeline   (needs the sqlite3 shell and python3)
set -euo pipefail
cd "$(dirname "$0")/../.."
ridgeline=$(realpath "${1:?usage: make-seeds.sh path/to/ridgeline}")
data=tests/data
out=tests/fuzz/seeds
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$out/session" "$out/nsys" "$out/ncurep"
mkdir -p "$out/session" "$out/nsys" "$out/ncurep"

compact() { sqlite3 "$1" "PRAGMA page_size=1024; VACUUM;"; }

# Sessions: one per importer (Kineto, Nsight Systems, ncu CSV raw and details, .ncu-rep).
import() { # name input...
    local name=$1
    shift
    "$ridgeline" import "$@" -o "$work/$name.ridge" >/dev/null 2>&1
}
import kineto-triton "$data/kineto/triton_example/triton_example.json.gz"
import kineto-inference "$data/kineto/trace_file_list/inference_rank_1.json.gz"
import kineto-cpu-only "$data/kineto/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"
import kineto-amd "$data/kineto/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"
import nsys "$data/nsys/concurrent-kernels.sqlite"
import ncu-raw "$data/ncu/raw-roofline.csv"
import ncu-details "$data/ncu/details.csv"
import ncurep "$data/ncu/nersc-gpp/output0.ncu-rep"
# NCCL collectives (comm_ops): the first kernels, copies and calls of a real two-GPU trace.
import kineto-nccl "$data/kineto/nccl_parser_config/nccl_data.json.gz"
sqlite3 "$work/kineto-nccl.ridge" "DELETE FROM kernels WHERE id > 40 AND id NOT IN (SELECT kernel_id FROM comm_ops WHERE id <= 8);
    DELETE FROM comm_ops WHERE id > 8; DELETE FROM verdicts WHERE kernel_id NOT IN (SELECT id FROM kernels);
    DELETE FROM kernel_names WHERE id NOT IN (SELECT name_id FROM kernels); DELETE FROM memops WHERE id > 20;
    DELETE FROM api_calls WHERE id > 60; DELETE FROM nvtx_ranges WHERE id > 20; DELETE FROM operator_chunks;"
for session in "$work"/*.ridge; do
    compact "$session"
    case "$(basename "$session")" in # two with what `summarize` stores: rank summaries, the timeline analysis
    kineto-inference.ridge | kineto-nccl.ridge) "$ridgeline" summarize "$session" >/dev/null ;;
    esac
    "$ridgeline" check "$session" >/dev/null
    cp "$session" "$out/session/"
done
# One at SQLite's usual 4 KiB pages, as sessions are written.
"$ridgeline" import "$data/ncu/details.csv" -o "$out/session/ncu-details-4k.ridge" >/dev/null 2>&1

# Nsight Systems exports: at most 6 rows per table, and the strings those rows may use (by the
# columns that hold string ids: ...Id, ...Name, symbol, module, text).
for export in "$data"/nsys/*.sqlite; do
    copy="$work/$(basename "$export")"
    cp "$export" "$copy"
    tables=$(sqlite3 "$copy" "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
        AND name <> 'StringIds' AND name NOT LIKE 'ENUM_%'")
    used=""
    for table in $tables; do
        sqlite3 "$copy" "DELETE FROM \"$table\" WHERE rowid NOT IN (SELECT rowid FROM \"$table\" ORDER BY rowid LIMIT 6)"
        for column in $(sqlite3 "$copy" "SELECT name FROM pragma_table_info('$table') WHERE name LIKE '%id'
            OR name LIKE '%name' OR name IN ('symbol', 'module', 'text')"); do
            used="$used UNION SELECT \"$column\" FROM \"$table\" WHERE \"$column\" IS NOT NULL"
        done
    done
    sqlite3 "$copy" "DELETE FROM StringIds WHERE id NOT IN (SELECT -1 ${used})"
    # 512-byte pages: an export has some 30 tables, each at least a page (about 30 KiB in all).
    sqlite3 "$copy" "PRAGMA page_size=512; VACUUM;"
    cp "$copy" "$out/nsys/$(basename "$export" .sqlite)-trimmed.sqlite"
done
# An export with NCCL's NVTX payloads, built by construction (the real exports have none).
sqlite3 "$out/nsys/nccl-payloads-constructed.sqlite" <tests/fuzz/nccl-seed.sql
compact "$out/nsys/nccl-payloads-constructed.sqlite"
# Reports: "NVR\0", a u32-length-prefixed file header, then blocks: a u32-length-prefixed block
# header (protobuf: field 1 the number of sources, 5 the payload size) and its payload.
for report in "$data"/ncu/nersc-gpp/*.ncu-rep; do
    python3 - "$report" "$out/ncurep/$(basename "$report" .ncu-rep)-nosource.ncu-rep" <<'PYTHON'
import struct, sys

def varint(b, i):
    value, shift = 0, 0
    while True:
        byte = b[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i

def fields(b):  # the varint fields of a message, by number
    out, i = {}, 0
    while i < len(b):
        key, i = varint(b, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            out[number], i = varint(b, i)
        elif wire == 2:
            n, i = varint(b, i)
            i += n
        else:
            i += {1: 8, 5: 4}[wire]
    return out

data = open(sys.argv[1], "rb").read()
length = struct.unpack_from("<I", data, 4)[0]
kept, i = [data[: 8 + length]], 8 + length
while i < len(data):
    length = struct.unpack_from("<I", data, i)[0]
    header = fields(data[i + 4 : i + 4 + length])
    end = i + 4 + length + header.get(5, 0)
    if header.get(1, 0) == 0:
        kept.append(data[i:end])
    i = end
open(sys.argv[2], "wb").write(b"".join(kept))
PYTHON
done
ls -l "$out/session" "$out/nsys" "$out/ncurep"
