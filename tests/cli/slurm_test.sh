#!/usr/bin/env bash
# memwall on a real Slurm: a one-node cluster on localhost (slurm_cluster.sh) runs
# `memwall slurm --submit` for a small sweep in 4 shards; the merged run must hold exactly the
# cases of one `memwall run` of the same sweep. Then one array task is cancelled mid-way and
# requeued: it resumes its shard, and nothing is lost or measured twice. Prints the per-task
# overheads and both wall times. Exits 77 (skipped) where Slurm or root is missing.
set -euo pipefail

memwall=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
for tool in slurmctld slurmd munged sbatch sqlite3; do
    if ! command -v "$tool" >/dev/null; then
        echo "skipped: $tool is missing (scripts/bootstrap.sh installs Slurm and munge)"
        exit 77
    fi
done
if [ "$(id -u)" -ne 0 ]; then
    echo "skipped: slurmd must run as root to start jobs"
    exit 77
fi

# shellcheck source=tests/cli/slurm_cluster.sh
source "$here/slurm_cluster.sh"
work=$(mktemp -d /tmp/memwall-slurm-XXXXXX)
cleanup() {
    slurm_cluster_stop
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP  # ctest's timeout: bash would otherwise die without running the EXIT trap
fail() {
    echo "FAIL: $*" >&2
    for f in "$work"/results*/logs/*.out; do [ -f "$f" ] && { echo "--- $f" >&2; cat "$f" >&2; }; done
    exit 1
}
now() { date +%s.%N; }
# ISO 8601 UTC (measured_at) as seconds since the epoch.
epoch() { date -d "$1" +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f s\n", b - a }'; }
sql() { sqlite3 -batch -noheader "$1" "$2"; }
# The case identities of a database (one line each), sorted.
cases_of() {
    sql "$1" "SELECT family, variant, backend, problem, config FROM cases ORDER BY 1, 2, 3, 4, 5"
}

sweep=(-f stream -b cpu -a "n=4096,8192,16384" --ceilings none --warmup 1 --min-samples 3 --min-time 0.02 --timeout 0.5)

slurm_cluster_start "$work/cluster" || fail "the cluster did not start"
export MEMWALL_LOCAL_DIR=$work/node-local  # the tasks' node-local disk

# One process, for the reference.
t0=$(now)
"$memwall" --db "$work/single.db" run "${sweep[@]}" --quiet >/dev/null || fail "memwall run"
single_wall=$(elapsed "$t0" "$(now)")
cases_of "$work/single.db" >"$work/single.cases"
total=$(wc -l <"$work/single.cases")
[ "$total" -ge 8 ] || fail "the reference run has $total cases"

# wait_job ID: until the job (every task of an array) has left the queue.
wait_job() {
    local i
    for i in $(seq 1 600); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 0.2
    done
    squeue >&2
    fail "job $1 did not end"
}

# The 4-shard sweep, submitted as the docs say.
results=$work/results
t0=$(now)
out=$("$memwall" slurm --shards 4 --results "$results" --submit -- run "${sweep[@]}") || fail "memwall slurm: $out"
echo "$out"
array_job=$(sed -n 's/^submitted array job \([0-9]*\) and merge job \([0-9]*\).*/\1/p' <<<"$out")
merge_job=$(sed -n 's/^submitted array job \([0-9]*\) and merge job \([0-9]*\).*/\2/p' <<<"$out")
[ -n "$array_job" ] && [ -n "$merge_job" ] || fail "no job ids in: $out"
grep -q -- '--requeue' "$results/memwall-array.sbatch" || fail "the array job is not requeueable"
grep -q -- '--gpus-per-task' "$results/memwall-array.sbatch" && fail "a cpu sweep asks for GPUs"
wait_job "$array_job"
wait_job "$merge_job"
merged_at=$(date -r "$results/merged.db" +%s.%N)
[ -f "$results/merged.db" ] || fail "no merged database"
cases_of "$results/merged.db" >"$work/merged.cases"
diff "$work/single.cases" "$work/merged.cases" >&2 || fail "the merged run's cases differ from the single run's"
[ "$(sql "$results/merged.db" 'SELECT count(DISTINCT run_id) FROM cases')" = 1 ] || fail "the shards are not one run"
[ "$(sql "$results/merged.db" "SELECT status FROM runs")" = complete ] || fail "the merged run is not complete"
for i in 0 1 2 3; do
    [ "$(sql "$results/merged.db" "SELECT value FROM run_tags WHERE key = 'shard.$i.slurm_array_task_id'")" = "$i" ] ||
        fail "shard $i's Slurm task id is not recorded"
    [ "$(sql "$results/shard-$i.db" "SELECT value FROM run_tags WHERE key = 'slurm_array_job_id'")" = "$array_job" ] ||
        fail "shard $i's run does not name array job $array_job"
done
first=$(epoch "$(sql "$results/merged.db" 'SELECT min(measured_at) FROM cases')")
last=$(epoch "$(sql "$results/merged.db" 'SELECT max(measured_at) FROM cases')")
# Merging again adds nothing.
cp "$results/merged.db" "$work/before.db"
"$memwall" merge "$results/merged.db" "$results"/shard-*.db >/dev/null || fail "merging again"
cmp -s <(cases_of "$work/before.db") <(cases_of "$results/merged.db") || fail "merging again changed the cases"

echo "single process: $total cases in $single_wall"
echo "4 shards on Slurm: submit to merged $(elapsed "$t0" "$merged_at")"
echo "  submit to first case measured: $(elapsed "$t0" "$first")"
echo "  last case measured to merged:  $(elapsed "$last" "$merged_at")"

# Cancelled mid-way and requeued: the merge job is held until the task is back in the queue.
results=$work/results-requeue
out=$("$memwall" slurm --shards 4 --results "$results" --submit -- run "${sweep[@]}") || fail "memwall slurm: $out"
array_job=$(sed -n 's/^submitted array job \([0-9]*\) and merge job \([0-9]*\).*/\1/p' <<<"$out")
merge_job=$(sed -n 's/^submitted array job \([0-9]*\) and merge job \([0-9]*\).*/\2/p' <<<"$out")
scontrol hold "$merge_job"
victim=0
victim_db=$MEMWALL_LOCAL_DIR/memwall-$array_job-$victim/shard-$victim.db
for _ in $(seq 1 600); do
    n=$(sql "$victim_db" 'SELECT count(*) FROM cases' 2>/dev/null || echo 0)
    [ "${n:-0}" -ge 1 ] && break
    sleep 0.05
done
[ "${n:-0}" -ge 1 ] || fail "shard $victim stored no case"
scancel "${array_job}_$victim"
for _ in $(seq 1 300); do
    [ -z "$(squeue -h -j "${array_job}_$victim" 2>/dev/null)" ] && break
    sleep 0.1
done
stored=$(sql "$results/shard-$victim.db" 'SELECT count(*) FROM cases')
status=$(sql "$results/shard-$victim.db" 'SELECT status FROM runs')
echo "cancelled shard $victim after $stored case(s) (run $status)"
[ "$status" = interrupted ] || fail "the cancelled shard's run is $status, not interrupted"
scontrol requeue "${array_job}_$victim" || fail "scontrol requeue"
scontrol release "$merge_job"
wait_job "$array_job"
wait_job "$merge_job"
grep -q "resuming run 1: $stored of" "$results/logs/shard-$victim.out" ||
    fail "the requeued task did not resume its shard"
[ "$(sql "$results/shard-$victim.db" "SELECT value FROM run_tags WHERE key = 'slurm_restart_count'")" = 1 ] ||
    fail "the requeued run does not record its restart"
cases_of "$results/merged.db" >"$work/requeued.cases"
diff "$work/single.cases" "$work/requeued.cases" >&2 ||
    fail "after the requeue the merged cases differ from the single run's"
[ "$(sql "$results/merged.db" "SELECT status FROM runs")" = complete ] ||
    fail "the requeued sweep's merged run is not complete"
echo "requeued shard $victim resumed: $total cases merged, none lost or measured twice"
