#!/usr/bin/env bash
# GPU validation kit (tests/gpu/README.md): builds the kit, captures each program with
# `ridgeline capture`, checks counted FLOPs (±1 %) and DRAM bytes (±10 %) against the analytic
# values each program prints, the verdicts, copies, NVTX ranges, processes, crash and abort
# handling (every launch before the signal kept), multithreaded serialisation, CUDA graphs, tensor
# work per type, `ridgeline metrics` passes against the capture's, counter ceilings against ncu's
# peak x clock; compares with `ncu --csv` where ncu exists; times capture overhead; prints one table.
# Where the GPU's counters cannot be read (ncu: "LibraryNotLoaded", say), it says so, captures
# trace only and still runs every check that needs no counter (the others: SKIP).
# Needs a GPU. Usage: tests/gpu/run.sh [BUILD_DIR]   (default: build; builds the kit there)
#                     tests/gpu/run.sh --bundle DIR  (a bundle of tests/gpu/bundle.sh: no cmake)
# Writes kit-table.txt and kit.tar.gz (sessions, ncu CSVs, logs) to $OUT, or to a new temporary
# folder when OUT is unset. Exit 0 when no check fails, 1 when one does, 2 when it cannot run.
# RIDGELINE_KIT_COUNTERS=0|1 overrides the counter probe; RIDGELINE_KIT_BUDGET_S (default 420) is
# the time after which the remaining ncu comparisons are skipped.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
if [[ "${1:-}" == --bundle ]]; then
    BUNDLE=$(cd "${2:?run.sh: --bundle needs a directory}" 2>/dev/null && pwd) \
        || { echo "run.sh: no bundle directory $2" >&2; exit 2; }
    [[ -x "$BUNDLE/bin/ridgeline" && -d "$BUNDLE/kit" ]] || { echo "run.sh: $BUNDLE is no bundle with the kit (tests/gpu/bundle.sh)" >&2; exit 2; }
    RIDGELINE="$BUNDLE/bin/ridgeline"
    BIN="$BUNDLE/kit"
else
    ROOT=$(cd "$(dirname "$0")/../.." && pwd)
    BUILD=$(cd "${1:-$ROOT/build}" 2>/dev/null && pwd) || { echo "run.sh: no build directory ${1:-$ROOT/build}" >&2; exit 2; }
    RIDGELINE="$BUILD/bin/ridgeline"
    BIN="$BUILD/tests/gpu/bin"
    cmake --build "$BUILD" --target ridgeline ridgeline-inject ridgeline-gpu-kit >/dev/null || { echo "run.sh: build failed" >&2; exit 2; }
fi
# CUPTI, cuBLAS and ncu of this machine; bundle_counters_probe.
# shellcheck source=tests/gpu/bundle-env.sh
. "$HERE/bundle-env.sh" "$BIN"
RESULTS=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/ridgeline-kit-out.XXXXXX")}
mkdir -p "$RESULTS"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ridgeline-kit.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
START=$(date +%s)
DEADLINE=$((START + ${RIDGELINE_KIT_BUDGET_S:-420}))

if ! "$RIDGELINE" devices >"$WORK/devices.txt" 2>&1; then
    cat "$WORK/devices.txt"
    { echo "run.sh: needs a GPU"; cat "$WORK/devices.txt"; } >"$RESULTS/kit-table.txt"
    echo "run.sh: needs a GPU" >&2
    exit 2
fi
"$RIDGELINE" devices --json >"$WORK/devices.json" 2>&1

PROGRAMS=(stream_triad sgemm dgemm gemm_bf16 copies latency streams nvtx_loop forks crash abort threads graphs)
# ncu profiles at most this many launches of a program (latency's 2000 would take minutes); with
# fewer than the program's, its figures are compared per launch.
NCU_LAUNCHES=${RIDGELINE_KIT_NCU_LAUNCHES:-100}
RESULTS_TSV="$WORK/results.tsv"
: >"$RESULTS_TSV"

bundle_counters_probe "$BIN/stream_triad" "$WORK/ncu-probe.txt"
if [[ "$COUNTERS" == 0 ]]; then
    echo "run.sh: no counters ($NO_COUNTERS): trace-only captures; the counter checks are SKIP"
    NCU=""
fi

seconds() { python3 -c 'import time; print(time.monotonic())'; }

# check PROGRAM: compares one program's session with what the program printed; one TSV line per check.
check() {
    python3 - "$@" <<'PY'
import csv, json, re, sqlite3, sys
program, work, plain_rc, capture_rc, t0, t1, t2, t3, ncu_csv, no_counters = sys.argv[1:11]
t0, t1, t2, t3 = map(float, (t0, t1, t2, t3))
session = f"{work}/{program}.ridge"
rows = []
def row(check, expected, measured, ok):
    rows.append((program, check, str(expected), str(measured), "PASS" if ok else "FAIL"))
def skip(check, expected, why=None):
    rows.append((program, check, str(expected), why or f"no counters ({no_counters})", "SKIP"))
def close(measured, expected, tol):
    return expected != 0 and abs(measured - expected) <= tol * abs(expected)
expect = []
for line in open(f"{work}/{program}.out", errors="replace"):
    if line.startswith("ridgeline-kit: "):
        expect.append(json.loads(line[len("ridgeline-kit: "):]))
try:
    report = json.load(open(f"{work}/{program}.json"))
except Exception as e:
    report = {"kernels": []}
    row("report", "json", f"unreadable ({e})", False)
try:
    db = sqlite3.connect(f"file:{session}?mode=ro", uri=True)
    meta = dict(db.execute("SELECT key, value FROM meta"))
except Exception as e:
    print("\t".join((program, "session", "readable", f"unreadable ({e}); capture exit {capture_rc}", "FAIL")))
    sys.exit(0)
if not expect:
    row("expectations printed (ridgeline-kit: lines)", "> 0", 0, False)
for e in expect:
    if "kernel" in e:
        mine = [k for k in report["kernels"] if e["kernel"] in k["name"]]
        launches = sum(k["launches"] for k in mine)
        flops = sum(k["flops"] or 0 for k in mine)
        dram = sum(k["dram_bytes"] or 0 for k in mine)
        name = e["kernel"]
        row(f"{name} launches", e["launches"], launches, launches == e["launches"])
        if no_counters:
            skip(f"{name} FLOPs, DRAM bytes, verdict", e["verdict"])
            continue
        row(f"{name} FLOPs ±1%", f"{e['flops']:.4g}", f"{flops:.4g}", close(flops, e["flops"], 0.01))
        if e["dram_check"] == "exact":
            row(f"{name} DRAM bytes ±10%", f"{e['dram_bytes']:.4g}", f"{dram:.4g}", close(dram, e["dram_bytes"], 0.10))
        elif e["dram_check"] == "min":
            row(f"{name} DRAM bytes ≥ compulsory-10%", f"{e['dram_bytes']:.4g}", f"{dram:.4g}", dram >= 0.9 * e["dram_bytes"])
        want = e["verdict"]
        if want != "any" and mine:
            k = max(mine, key=lambda k: k["total_time_ns"])
            got = k["verdict"] + (":" + k["bound_by"] if k.get("bound_by") and ":" in want else "")
            row(f"{name} verdict", want, got, got == want)
        elif mine:
            k = max(mine, key=lambda k: k["total_time_ns"])
            row(f"{name} verdict (reported)", "-", f"{k['verdict']}:{k.get('bound_by')}", True)
    elif "memop" in e:
        side = "src_memory" if e["memop"] == "memcpy_htod" else "dst_memory"
        count, total = db.execute(f"SELECT count(*), coalesce(sum(bytes),0) FROM memops WHERE kind=? AND {side}=?",
                                  (e["memop"], e["memory"])).fetchone()
        row(f"{e['memop']} {e['memory']} count", e["count"], count, count == e["count"])
        row(f"{e['memop']} {e['memory']} bytes", f"{e['bytes']:.4g}", f"{total:.4g}", total == e["bytes"])
    elif "nvtx" in e:
        (count,) = db.execute("SELECT count(*) FROM nvtx_ranges n JOIN strings s ON s.id = n.name_id WHERE s.value=?",
                              (e["nvtx"],)).fetchone()
        row(f"NVTX '{e['nvtx']}' ranges", e["count"], count, count == e["count"])
    elif "processes" in e:
        (count,) = db.execute("SELECT count(DISTINCT process_id) FROM kernels").fetchone()
        row("processes with kernels", e["processes"], count, count == e["processes"])
    elif "crash" in e:
        (kernels,) = db.execute("SELECT count(*) FROM kernels").fetchone()
        want_rc = 134 if e["crash"] == "SIGABRT" else 139
        row("exit status", want_rc, capture_rc, int(capture_rc) == want_rc)
        row("session status", "partial", meta.get("status"), meta.get("status") == "partial")
        # The fatal-signal handler flushes what CUPTI holds: every launch before the signal is kept.
        row("every launch before the signal kept", e["launches_before_crash"], kernels,
            kernels == e["launches_before_crash"])
        row("signal recovered from the crash file", "warning", "found" if "died of signal" in meta.get(
            "capture.warning", "") else "missing", "died of signal" in meta.get("capture.warning", ""))
    elif "serialised" in e and no_counters:
        skip("no range held another launch", "no 'instead of one' warning")
    elif "serialised" in e:
        warning = meta.get("capture.warning", "")
        row("no range held another launch", "no 'instead of one' warning",
            "warning" if "instead of one" in warning else "none", "instead of one" not in warning)
    elif "graph" in e:
        launches, nodes = e["launches"], e["nodes"]
        (graph_kernels,) = db.execute("SELECT count(*) FROM kernels WHERE graph_id != 0").fetchone()
        row("graph kernels recorded with their graph id", launches * nodes, graph_kernels,
            graph_kernels == launches * nodes)
        if no_counters:
            skip("graph launch counters (per node or graph-level)", "per kernel node | graph-level")
            continue
        reasons = [r for (r,) in db.execute(
            "SELECT v.reason FROM verdicts v JOIN kernels k ON k.id = v.kernel_id WHERE k.graph_id != 0")]
        (marked,) = db.execute("SELECT count(*) FROM kernels WHERE graph_id != 0 AND graph_range_kernels > 0").fetchone()
        per_node = reasons and all(not r.startswith("unknown") and "graph-level" not in r for r in reasons)
        graph_level = marked == launches * nodes
        found = "per kernel node" if per_node else "graph-level" if graph_level else "none"
        # What CUPTI's auto range + kernel replay does with a graph launch: either is handled.
        row("graph launch counters (per node or graph-level)", "per kernel node | graph-level", found,
            found != "none")
        if found == "graph-level":
            (first,) = db.execute("SELECT count(*) FROM kernels k JOIN verdicts v ON v.kernel_id = k.id "
                                  "WHERE k.graph_id != 0 AND v.reason LIKE 'graph-level counters (one range%'").fetchone()
            row("graph-level counters on each launch's first kernel", launches, first, first == launches)
if program not in ("crash", "abort"):
    row("exit status", plain_rc, capture_rc, plain_rc == capture_rc)
    row("session status", "complete", meta.get("status"), meta.get("status") == "complete")
if ncu_csv:
    units = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "KB": 1e3, "MB": 1e6, "GB": 1e9}
    with open(ncu_csv, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    table = list(csv.reader(lines))
    if len(table) > 2:
        head, unit_row, data = table[0], table[1], table[2:]
        col = {h: i for i, h in enumerate(head)}
        def value(r, m):
            if m not in col or r[col[m]] in ("", "n/a"):
                return 0.0
            return float(r[col[m]].replace(",", "")) * units.get(unit_row[col[m]], 1)
        for e in expect:
            if "kernel" not in e:
                continue
            mine = [r for r in data if e["kernel"] in r[col.get("Kernel Name", 0)]]
            if not mine:
                continue
            flops = sum(2 * value(r, f"smsp__sass_thread_inst_executed_op_{p}fma_pred_on.sum")
                        + value(r, f"smsp__sass_thread_inst_executed_op_{p}add_pred_on.sum")
                        + value(r, f"smsp__sass_thread_inst_executed_op_{p}mul_pred_on.sum")
                        for r in mine for p in ("f", "d"))
            dram = sum(value(r, "dram__bytes.sum") for r in mine)
            ours = [k for k in report["kernels"] if e["kernel"] in k["name"]]
            our_flops = sum(k["flops"] or 0 for k in ours)
            our_dram = sum(k["dram_bytes"] or 0 for k in ours)
            our_launches = sum(k["launches"] for k in ours)
            what = ""
            if 0 < len(mine) < our_launches:  # ncu saw the first launches only: compare per launch
                flops, dram = flops / len(mine), dram / len(mine)
                our_flops, our_dram = our_flops / our_launches, our_dram / our_launches
                what = f" (per launch, ncu's first {len(mine)})"
            if flops > 0 and "tensor" not in e["verdict"]:
                row(f"{e['kernel']} FLOPs vs ncu ±1%{what}", f"{flops:.4g}", f"{our_flops:.4g}", close(our_flops, flops, 0.01))
            if dram > 0:
                row(f"{e['kernel']} DRAM vs ncu ±10%{what}", f"{dram:.4g}", f"{our_dram:.4g}", close(our_dram, dram, 0.10))
plain = max(t1 - t0, 1e-6)
row("overhead trace-only", f"{plain:.2f} s", f"{t2 - t1:.2f} s (x{(t2 - t1) / plain:.2f})", True)
if no_counters:
    skip("overhead counters", f"{plain:.2f} s")
else:
    row("overhead counters", f"{plain:.2f} s", f"{t3 - t2:.2f} s (x{(t3 - t2) / plain:.2f})", True)
for r in rows:
    print("\t".join(r))
PY
}

# run SECONDS COMMAND...: the command, ended (status 124) when it outlasts SECONDS.
run() {
    local limit=$1
    shift
    timeout -k 10 "$limit" "$@"
}

for program in "${PROGRAMS[@]}"; do
    exe="$BIN/$program"
    t0=$(seconds); run 120 "$exe" >"$WORK/$program.plain.out" 2>&1; plain_rc=$?; t1=$(seconds)
    if [[ "$COUNTERS" == 1 ]]; then
        run 180 "$RIDGELINE" capture --metrics none -o "$WORK/$program.trace.ridge" -- "$exe" >/dev/null 2>"$WORK/$program.trace.err"
        t2=$(seconds)
        run 240 "$RIDGELINE" capture -o "$WORK/$program.ridge" -- "$exe" >"$WORK/$program.out" 2>"$WORK/$program.err"
        capture_rc=$?; t3=$(seconds)
    else
        # No counters: the trace-only capture is the one checked.
        run 180 "$RIDGELINE" capture --metrics none -o "$WORK/$program.ridge" -- "$exe" >"$WORK/$program.out" 2>"$WORK/$program.err"
        capture_rc=$?; t2=$(seconds); t3=$t2
    fi
    run 60 "$RIDGELINE" report --format json "$WORK/$program.ridge" >"$WORK/$program.json" 2>>"$WORK/$program.err"
    ncu_csv=""
    if [[ -n "$NCU" && "$program" != crash && "$program" != forks ]]; then
        if (($(date +%s) > DEADLINE)); then
            printf '%s\tncu comparison\t-\tskipped: past RIDGELINE_KIT_BUDGET_S (%s s)\tSKIP\n' "$program" "${RIDGELINE_KIT_BUDGET_S:-420}" >>"$RESULTS_TSV"
        else
            metrics=dram__bytes.sum
            for op in ffma fadd fmul dfma dadd dmul; do metrics+=",smsp__sass_thread_inst_executed_op_${op}_pred_on.sum"; done
            run 180 "$NCU" --csv --page raw --launch-count "$NCU_LAUNCHES" --metrics "$metrics" "$exe" >"$WORK/$program.ncu.csv" 2>"$WORK/$program.ncu.err" \
                && ncu_csv="$WORK/$program.ncu.csv"
        fi
    fi
    check "$program" "$WORK" "$plain_rc" "$capture_rc" "$t0" "$t1" "$t2" "$t3" "$ncu_csv" "$NO_COUNTERS" >>"$RESULTS_TSV"
    cp "$RESULTS_TSV" "$RESULTS/kit-table.txt" # the rows so far, should the run be cut short
    echo "run.sh: $program done ($(($(date +%s) - START)) s)"
done

# Without counters: one counter capture anyway, to see that Ridgeline says why and the program
# still runs (exit status and a complete session).
if [[ "$COUNTERS" == 0 ]]; then
    run 180 "$RIDGELINE" capture -o "$WORK/stream_triad.counters.ridge" -- "$BIN/stream_triad" \
        >"$WORK/stream_triad.counters.out" 2>"$WORK/stream_triad.counters.err"
    rc=$?
    python3 - "$WORK" "$rc" >>"$RESULTS_TSV" <<'PY'
import sqlite3, sys
work, rc = sys.argv[1], sys.argv[2]
try:
    db = sqlite3.connect(f"file:{work}/stream_triad.counters.ridge?mode=ro", uri=True)
    meta = dict(db.execute("SELECT key, value FROM meta"))
    status = meta.get("status")
    warning = "; ".join(meta[k] for k in ("capture.error", "capture.warning") if meta.get(k))
except Exception as e:
    status, warning = f"unreadable ({e})", ""
if not warning:  # what ridgeline said on stderr, for the table
    lines = [l.strip() for l in open(f"{work}/stream_triad.counters.err", errors="replace") if l.strip()]
    warning = f"stderr: {lines[-1]}" if lines else ""
ok = rc == "0" and status == "complete"
print("\t".join(("stream_triad", "counter capture where counters cannot be read: runs, says why",
                 "exit 0, complete, says why", f"exit {rc}, {status}, {warning[:200] or 'nothing said'}",
                 "PASS" if ok and warning else "FAIL")))
PY
fi

# Tensor work per type (gemm_bf16 is a cuBLAS BF16 GEMM): booked as BF16 tensor, not FP16 (the
# x512 estimate); `ridgeline metrics` (local GPU) gives the passes the capture recorded.
"$RIDGELINE" metrics --format json >"$WORK/metrics.json" 2>"$WORK/metrics.err"
python3 - "$WORK" "$NO_COUNTERS" >>"$RESULTS_TSV" <<'PY'
import json, sqlite3, sys
work, no_counters = sys.argv[1:3]
rows = []
def row(program, check, expected, measured, ok):
    rows.append((program, check, str(expected), str(measured), "PASS" if ok else "FAIL"))
if no_counters:
    for program, check, expected in (("gemm_bf16", "tensor FLOPs booked as BF16, counted", "≥ 99 %, counted"),
                                     ("sgemm", "replay passes = ridgeline metrics", "equal")):
        rows.append((program, check, expected, f"no counters ({no_counters})", "SKIP"))
    for r in rows:
        print("\t".join(r))
    sys.exit(0)
try:
    report = json.load(open(f"{work}/gemm_bf16.json"))
    tensor = {}
    for k in report["kernels"]:
        for res, flops in k["flops_by_precision"].items():
            if res.endswith("_tensor"):
                tensor[res] = tensor.get(res, 0) + flops
    total = sum(tensor.values())
    share = tensor.get("BF16_tensor", 0) / total if total else 0
    row("gemm_bf16", "tensor FLOPs booked as BF16", "≥ 99 %", f"{share * 100:.1f} % of {total:.4g}", share >= 0.99)
    estimated = any(k.get("tensor_flops_estimated") for k in report["kernels"])
    row("gemm_bf16", "tensor FLOPs counted, not the x512 estimate", "counted",
        "estimate" if estimated else "counted", not estimated)
except Exception as e:
    row("gemm_bf16", "tensor FLOPs per type", "report", f"unreadable ({e})", False)
try:
    doc = json.load(open(f"{work}/metrics.json"))
    passes = "+".join(str(g["passes"]) for g in doc["config_images"])
    db = sqlite3.connect(f"file:{work}/sgemm.ridge?mode=ro", uri=True)
    recorded = dict(db.execute("SELECT key, value FROM meta")).get("capture.replay_passes")
    row("sgemm", f"replay passes = ridgeline metrics ({doc['chip']})", passes, recorded, passes == recorded)
except Exception as e:
    row("sgemm", "replay passes = ridgeline metrics", "metrics json", f"unreadable ({e})", False)
for r in rows:
    print("\t".join(r))
PY
# Counter ceilings against Nsight Compute's own peak_sustained x clock, on the sgemm run (±10 %:
# the clock of the two runs can differ a little).
if [[ -n "$NCU" ]]; then
    peaks="sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained,sm__cycles_elapsed.avg.per_second"
    peaks+=",dram__bytes.sum.peak_sustained,dram__cycles_elapsed.avg.per_second"
    peaks+=",lts__t_bytes.sum.peak_sustained,lts__cycles_elapsed.avg.per_second"
    peaks+=",l1tex__t_bytes.sum.peak_sustained,l1tex__cycles_elapsed.avg.per_second"
    run 120 "$NCU" --csv --page raw --launch-count 1 --metrics "$peaks" "$BIN/sgemm" >"$WORK/peaks.ncu.csv" 2>"$WORK/peaks.ncu.err"
    python3 - "$WORK" "$NO_COUNTERS" >>"$RESULTS_TSV" <<'PY'
import csv, sqlite3, sys
work = sys.argv[1]
lines = [l for l in open(f"{work}/peaks.ncu.csv") if l.startswith('"')]
table = list(csv.reader(lines))
rows = []
if len(table) > 2:
    head, data = table[0], table[2]
    v = lambda m: float(data[head.index(m)].replace(",", "")) if m in head else 0.0
    expected = {
        "FP32": 2 * v("sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained") * v("sm__cycles_elapsed.avg.per_second"),
        "DRAM": v("dram__bytes.sum.peak_sustained") * v("dram__cycles_elapsed.avg.per_second"),
        "L2": v("lts__t_bytes.sum.peak_sustained") * v("lts__cycles_elapsed.avg.per_second"),
        "L1": v("l1tex__t_bytes.sum.peak_sustained") * v("l1tex__cycles_elapsed.avg.per_second"),
    }
    db = sqlite3.connect(f"file:{work}/sgemm.ridge?mode=ro", uri=True)
    ours = {r: val for r, val in db.execute("SELECT resource, value FROM ceilings WHERE source = 'counters'")}
    for res, want in expected.items():
        got = ours.get(res, 0.0)
        ok = want > 0 and abs(got - want) <= 0.10 * want
        rows.append(("sgemm", f"{res} counter ceiling vs ncu peak x clock ±10%", f"{want:.4g}", f"{got:.4g}",
                     "PASS" if ok else "FAIL"))
else:
    rows.append(("sgemm", "counter ceilings vs ncu", "ncu csv", "no rows", "FAIL"))
for r in rows:
    print("\t".join(r))
PY
elif [[ "$COUNTERS" == 0 ]]; then
    printf 'sgemm\tcounter ceilings vs ncu peak x clock ±10%%\t-\tno counters (%s)\tSKIP\n' "$NO_COUNTERS" >>"$RESULTS_TSV"
fi

# One table, then the verdict of the run; the table and everything behind it (sessions, ncu CSVs,
# logs) to $RESULTS.
python3 - "$RESULTS_TSV" "$WORK/devices.txt" "$NO_COUNTERS" "$START" <<'PY' | tee "$RESULTS/kit-table.txt"
import sys, time
tsv, devices, no_counters, start = sys.argv[1:5]
print("".join(open(devices).readlines()[:4]), end="")
if no_counters:
    print(f"counters: none ({no_counters}); trace-only checks only")
rows = [l.rstrip("\n").split("\t") for l in open(tsv) if l.strip()]
head = ("program", "check", "expected", "measured", "result")
widths = [max(len(r[i]) for r in rows + [head]) for i in range(5)]
for r in [head] + rows:
    print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
failed = sum(r[4] == "FAIL" for r in rows)
skipped = sum(r[4] == "SKIP" for r in rows)
print(f"\n{len(rows) - failed - skipped} of {len(rows)} checks passed, {failed} failed, {skipped} skipped"
      f" ({time.time() - float(start):.0f} s)")
PY
# Compressed (a counter session of 2000 launches is a few MiB); the trace-only sessions go first
# when the archive would be over 15 MiB.
tar -czf "$RESULTS/kit.tar.gz" -C "$WORK" .
if (($(stat -c %s "$RESULTS/kit.tar.gz") > 15 * 1024 * 1024)); then
    tar -czf "$RESULTS/kit.tar.gz" -C "$WORK" --exclude='*.trace.ridge' .
fi
echo "run.sh: wrote $RESULTS/kit-table.txt and $RESULTS/kit.tar.gz"
! grep -q -P '\tFAIL$' "$RESULTS_TSV"
