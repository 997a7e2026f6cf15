#!/usr/bin/env bash
# tests/slurm/run.sh BUILD_DIR: the many-rank workflow under a real Slurm (issue 37).
#
# Installs slurm-wlm, munge and jq when missing, starts a one-node cluster on loopback in a temporary
# folder (munged, slurmctld, slurmd; 4 CPUs configured on any machine, so that 4 tasks fit on 2
# cores), and runs what README.md and docs/CLUSTER.md tell users to run:
#   - srun -n 4: capture of a CPU-only program, one session per task (no GPU: each still says why);
#   - srun -n 2: import of the two real ranks of tests/data/kineto/trace_filter, one file per task,
#     then summarize;
#   - the batch script of docs/CLUSTER.md, taken from the doc, with sbatch;
#   - report --by rank over the captures and the imports.
# Checks the sessions' ranks against SLURM_PROCID, their job, host and no-GPU reason, the rank count
# and the slow rank. The daemons it started are stopped by their pids, also when it fails. Exit 0
# only when every check passed. KEEP=1 keeps the temporary folder (its path is printed).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
t0=$(date +%s)

if [ $# -ne 1 ]; then
    echo "usage: tests/slurm/run.sh BUILD_DIR" >&2
    exit 2
fi
if [ ! -x "$1/bin/ridgeline" ]; then
    echo "slurm: $1/bin/ridgeline not found: build it first (ninja -C $1 ridgeline ridgeline-inject)" >&2
    exit 2
fi
build=$(cd "$1" && pwd)

apt_caller=slurm
# shellcheck source=installer/apt.sh
source "$here/installer/apt.sh"
install_packages slurm-wlm munge jq
t_installed=$(date +%s)

# Nothing of a surrounding Slurm job (CI itself run by Slurm) may leak into this cluster's jobs.
while read -r name; do unset "$name"; done < <(compgen -e | grep '^SLURM_' || true)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ridgeline-slurm.XXXXXX")
chmod 755 "$tmp" # munged wants every folder above its socket searchable by all
pids=()
cleanup() {
    local rc=$? pid i
    set +f
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        pid=${pids[i]}
        as_root kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$pid" 2>/dev/null; then
            echo "slurm: pid $pid did not stop on SIGTERM in 5 s: killed" >&2
            as_root kill -9 "$pid" 2>/dev/null || true
        fi
        wait "$pid" 2>/dev/null || true
    done
    if [ "$rc" -ne 0 ] && [ -d "$tmp/log" ]; then
        for log in "$tmp"/log/*; do
            echo "slurm: --- last lines of $log"
            tail -n 15 "$log"
        done
    fi
    if [ "${KEEP:-}" = 1 ]; then echo "slurm: kept $tmp"; else as_root rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
check() { # check DESCRIPTION COMMAND...: one check, counted
    if "${@:2}"; then
        passed=$((passed + 1))
        echo "slurm: ok   $1"
    else
        failed=$((failed + 1))
        echo "slurm: FAIL $1"
    fi
}
equal() { [ "$1" = "$2" ] || { echo "slurm:      expected '$2', got '$1'"; return 1; }; }
contains() { [[ $1 == *"$2"* ]] || { echo "slurm:      '$2' not in: ${1:0:300}"; return 1; }; }

# --- A one-node cluster on loopback: munge key, slurm.conf, three daemons -----------------------
free_port() { # the first port from $1 on that nothing listens on
    local port=$1
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    echo "$port"
}
node=$(hostname -s)
ctld_port=$(free_port 16817)
slurmd_port=$(free_port $((ctld_port + 1)))
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/work"
as_root mkdir -m 755 "$tmp/munge"
as_root sh -c 'umask 077 && head -c 1024 /dev/urandom > "$1"' sh "$tmp/munge/munge.key"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=ridgeline-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# 4 CPUs whatever the machine has (2 cores here): the configuration, not the hardware, counts.
SlurmdParameters=config_overrides
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=4 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=10 State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
daemon() { # daemon NAME COMMAND...: runs it as root in the foreground of a background job; its pid
    local log=$tmp/log/$1.out
    shift
    # Not through the as_root function: the background job would be a subshell, and its pid not
    # the daemon's. Through sudo, the pid is sudo's, which passes the signals on.
    # shellcheck disable=SC2024 # the log is ours, written by this shell
    if [ "$(id -u)" -eq 0 ]; then "$@" >"$log" 2>&1 & else sudo "$@" >"$log" 2>&1 & fi
    pids+=($!)
}
daemon munged munged -F --socket="$tmp/munge/munge.sock" --key-file="$tmp/munge/munge.key" \
    --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" --log-file="$tmp/log/munged.log"
for _ in $(seq 50); do [ -S "$tmp/munge/munge.sock" ] && break; sleep 0.1; done
daemon slurmctld slurmctld -D -i -f "$SLURM_CONF"
daemon slurmd slurmd -D -N "$node" -f "$SLURM_CONF"
state=""
for _ in $(seq 60); do
    state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
if [ "$state" != idle ]; then
    echo "slurm: the node did not come up idle in 30 s (sinfo: '${state:-no answer}')" >&2
    exit 1
fi
t_up=$(date +%s)
echo "slurm: node $node idle ($((t_up - t_installed)) s; slurmctld on port $ctld_port)"

# What the tasks run: `ridgeline` from this build, and never a GPU driver (the capture tests' rule:
# the results must not depend on the machine; on this CPU-only cluster nothing changes).
export PATH="$build/bin:$PATH"
export RIDGELINE_LIBCUDA=/nonexistent/libcuda.so.1
cpu_program='i=0; while [ $i -lt 50000 ]; do i=$((i + 1)); done; echo "task $SLURM_PROCID of job $SLURM_JOB_ID: done"'
cd "$tmp/work"
set -f # the command lines below are split into words, never globbed

# README.md's Slurm lines, run as they are written there (the program apart).
readme=$(cat "$here/README.md")
capture_line='ridgeline capture -o runs/run-%q{SLURM_PROCID}.ridge --'
import_line='ridgeline import rank-%q{SLURM_PROCID}.json.gz -o runs2/'
summarize_line='ridgeline summarize runs2/rank-%q{SLURM_PROCID}.ridge'
for line in "srun $capture_line python train.py" "srun $import_line" "srun $summarize_line" \
    'ridgeline report runs/ --by rank' 'ridgeline report runs2/ --by rank'; do
    check "README.md runs: $line" contains "$readme" "$line"
done

meta() { ridgeline check --json "$1" | jq -r --arg k "$2" '.meta[$k] // empty'; }
ranks_json() { ridgeline report "$1" --by rank --format json; }

# --- Map: 4 tasks capture a CPU-only program -------------------------------------------------------
mkdir runs
# shellcheck disable=SC2086 # split into words on purpose
out=$(timeout 60 srun -n 4 $capture_line sh -c "$cpu_program" 2>&1) || {
    echo "$out"
    echo "slurm: srun -n 4 ridgeline capture failed" >&2
    exit 1
}
capture_job=$(meta runs/run-0.ridge slurm.job_id)
for rank in 0 1 2 3; do
    s=runs/run-$rank.ridge
    check "capture task $rank wrote $s" test -f "$s"
    [ -f "$s" ] || continue
    check "$s: slurm.procid is the task's SLURM_PROCID" equal "$(meta "$s" slurm.procid)" "$rank"
    check "$s: one job step for all tasks" equal "$(meta "$s" slurm.job_id)/$(meta "$s" slurm.step_id)" \
        "$capture_job/$(meta runs/run-0.ridge slurm.step_id)"
    check "$s: the host" equal "$(meta "$s" host)" "$(hostname)"
    check "$s: why no GPU activity was recorded" contains "$(meta "$s" capture.error)" \
        "No GPU activity could be recorded: "
    check "$s: the program ran to its end" equal "$(meta "$s" capture.exit_status)/$(meta "$s" status)" "0/complete"
done
check "a job id" test -n "$capture_job"
check "each task's output passed through" equal "$(grep -c ': done$' <<<"$out")" 4
report=$(ranks_json runs/)
check "report runs/ --by rank: ranks 0-3, each from its own file" equal \
    "$(jq -c '[.ranks[] | [.rank, (.session | sub(".*/"; ""))]]' <<<"$report")" \
    '[[0,"run-0.ridge"],[1,"run-1.ridge"],[2,"run-2.ridge"],[3,"run-3.ridge"]]'
check "report runs/ --by rank: every rank of the capture's job" equal "$(jq -c '[.ranks[].job] | unique' <<<"$report")" \
    "[\"$capture_job\"]"

# --- Import and summarize: 2 tasks, one real trace each -------------------------------------------
for rank in 0 1; do
    cp "$here/tests/data/kineto/trace_filter/sampled_rank-$rank.json.gz" "rank-$rank.json.gz"
done
# shellcheck disable=SC2086 # split into words on purpose
timeout 60 srun -n 2 $import_line
# shellcheck disable=SC2086 # split into words on purpose
summarized=$(timeout 60 srun -n 2 $summarize_line)
for rank in 0 1; do
    s=runs2/rank-$rank.ridge
    check "import task $rank wrote $s" test -f "$s"
    [ -f "$s" ] || continue
    check "$s: slurm.procid is the task's SLURM_PROCID" equal "$(meta "$s" slurm.procid)" "$rank"
    check "$s: the import's job" test -n "$(meta "$s" slurm.job_id)"
    check "$s: summarised by task $rank" contains "$summarized" "$s: 1 rank summarised ($rank)"
done
check "both imports ran in one job step, not the capture's" equal \
    "$(meta runs2/rank-1.ridge slurm.job_id)/$(meta runs2/rank-1.ridge slurm.step_id)" \
    "$(meta runs2/rank-0.ridge slurm.job_id)/$(meta runs2/rank-0.ridge slurm.step_id)"
check "the imports' job is not the capture's" test "$(meta runs2/rank-0.ridge slurm.job_id)" != "$capture_job"
check "runs2/ holds the two sessions only" equal "$(ls runs2 | tr '\n' ' ')" "rank-0.ridge rank-1.ridge "

# --- Reduce over the imports: the rank count and the slow rank ------------------------------------
table=$(ridgeline report runs2/ --by rank)
echo "$table"
report=$(ranks_json runs2/)
check "report runs2/ --by rank: 2 ranks, 0 and 1" equal "$(jq -c '[.ranks[].rank]' <<<"$report")" '[0,1]'
check "report runs2/ --by rank: cluster figures over 2 ranks" equal "$(jq '.cluster.ranks' <<<"$report")" 2
# Of the 10 collective instances matched across this real pair, rank 1 starts 8 last, 381.329 ms
# late in all (rank 0: 2, 132.166 ms); the same report over sessions imported without Slurm agrees.
check "the slow rank is rank 1: last in 8 of 10 instances" equal \
    "$(jq -c '[.cluster.instances, .slow_ranks[0].rank, .slow_ranks[0].instances, .slow_ranks[0].late_ns]' <<<"$report")" \
    '[10,1,8,381329000]'
check "the table names the slow rank first" contains "$table" "):
  rank 1: last in 8 instances, 381.329 ms late in total"
mkdir plain
ridgeline import rank-0.json.gz rank-1.json.gz -o plain/ 2>/dev/null
check "the same slow ranks as without Slurm" equal "$(jq -c '.slow_ranks' <<<"$report")" \
    "$(ranks_json plain/ | jq -c '.slow_ranks')"

# --- The batch script of docs/CLUSTER.md, as the doc prints it -------------------------------------
awk '/<!-- begin capture.sbatch/ { on = 1; next } /<!-- end capture.sbatch/ { on = 0 } on && !/^```/' \
    "$here/docs/CLUSTER.md" >capture.sbatch
check "docs/CLUSTER.md has the batch script" grep -q '^srun ridgeline capture' capture.sbatch
batch_rc=0
batch_job=$(timeout 90 sbatch --parsable --wait --ntasks=4 --output=batch.out capture.sbatch sh -c "$cpu_program") ||
    batch_rc=$?
batch_job=${batch_job%%;*}
[ "$batch_rc" -eq 0 ] || cat batch.out
check "sbatch capture.sbatch: job ${batch_job:-?} ran and exited 0" equal "${batch_job:+ran}/$batch_rc" "ran/0"
check "the batch job's output has every task's" equal "$(grep -c ': done$' batch.out)" 4
gathered=runs-$batch_job
for rank in 0 1 2 3; do
    s=$gathered/run-$rank.ridge
    check "batch task $rank's session gathered into $s" test -f "$s"
    [ -f "$s" ] || continue
    check "$s: slurm.procid and job" equal "$(meta "$s" slurm.procid)/$(meta "$s" slurm.job_id)" "$rank/$batch_job"
done
check "the batch job's report: ranks 0-3" equal "$(jq -c '[.ranks[].rank]' "$gathered/ranks.json" 2>&1)" '[0,1,2,3]'
check "the node-local folder was emptied and removed" test ! -e "${TMPDIR:-/tmp}/ridgeline-$batch_job"

t_end=$(date +%s)
echo "slurm: $passed checks passed, $failed failed; packages $((t_installed - t0)) s, cluster up" \
    "$((t_up - t_installed)) s, jobs and checks $((t_end - t_up)) s"
if [ $((t_end - t_installed)) -gt 180 ]; then
    echo "slurm: FAIL the test took $((t_end - t_installed)) s after the packages, over 3 minutes" >&2
    exit 1
fi
[ "$failed" -eq 0 ]
