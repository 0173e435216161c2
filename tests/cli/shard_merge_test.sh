#!/usr/bin/env bash
# run --shard I/4 for I = 0..3, then merge: exactly the cases of one run of the same sweep, as one
# run; merging again adds nothing; a newer schema, a conflicting duplicate and bad shards exit 2
# with the output's bytes unchanged.
set -euo pipefail

memwall=$(realpath "$1")
work=$(mktemp -d /tmp/memwall-shards-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
sql() { sqlite3 -batch -noheader "$1" "$2"; }
cases_of() { sql "$1" "SELECT family, variant, backend, problem, config FROM cases ORDER BY 1, 2, 3, 4, 5"; }
# expect_refusal WHAT COMMAND...: exit status 2 and one line on stderr.
expect_refusal() {
    local what=$1 status=0
    shift
    "$@" >/dev/null 2>err || status=$?
    [ "$status" = 2 ] || fail "$what: exit status $status, not 2"
    [ "$(wc -l <err)" = 1 ] || fail "$what: stderr is not one line: $(cat err)"
}

sweep=(-f stream -b cpu -a "n=4096,8192" -a op=copy,triad --ceilings none --warmup 1 --min-samples 3 --min-time 0.01
    --timeout 0.2 --quiet)
"$memwall" --db single.db run "${sweep[@]}" >/dev/null || fail "memwall run"
for i in 0 1 2 3; do
    "$memwall" --db "shard-$i.db" run "${sweep[@]}" --shard "$i/4" >/dev/null || fail "memwall run --shard $i/4"
    [ "$(sql "shard-$i.db" 'SELECT count(*) FROM cases')" -ge 1 ] || fail "shard $i measured nothing"
done
"$memwall" merge merged.db shard-{0,1,2,3}.db >out || fail "merge"
cat out
diff <(cases_of single.db) <(cases_of merged.db) >&2 || fail "the merged cases differ from the single run's"
[ "$(sql merged.db 'SELECT count(*) FROM runs')" = 1 ] || fail "the shards are not one run"
[ "$(sql merged.db 'SELECT status FROM runs')" = complete ] || fail "the merged run is not complete"
"$memwall" --db merged.db show 1 >/dev/null || fail "show of the merged run"
"$memwall" --db merged.db export 1 --format csv >/dev/null || fail "export of the merged run"

cp merged.db before.db
"$memwall" merge merged.db shard-{0,1,2,3}.db >out || fail "merging again"
grep -q " 0 case(s) added" out || fail "merging again added cases: $(cat out)"
diff <(cases_of before.db) <(cases_of merged.db) || fail "merging again changed the cases"

# Refusals leave the output's bytes as they were.
cp merged.db guard.db
cp shard-1.db newer.db
sql newer.db "PRAGMA user_version = 999"
expect_refusal "a newer schema" "$memwall" merge merged.db shard-0.db newer.db
cmp -s merged.db guard.db || fail "a refused newer schema changed the output"
"$memwall" --db again.db run "${sweep[@]}" --shard 1/4 >/dev/null || fail "a second measurement of shard 1"
expect_refusal "a conflicting duplicate" "$memwall" merge merged.db again.db
cmp -s merged.db guard.db || fail "a refused conflicting duplicate changed the output"
ls merged.db.merge-* 2>/dev/null && fail "a temporary file was left"
for bad in 4/4 1/0 x/4 -1/4; do
    expect_refusal "--shard $bad" "$memwall" --db bad.db run "${sweep[@]}" --shard "$bad"
done
[ ! -e bad.db ] || fail "a refused --shard created the database"
expect_refusal "more shards than cases" "$memwall" --db bad.db run "${sweep[@]}" --shard 0/99
expect_refusal "--shard with --resume" "$memwall" --db shard-0.db run --resume --shard 0/4

# ci --shard: the shard's cases compared with the same cases of a whole baseline, none missing.
cat >suite.json <<'SUITE'
{"name": "tiny", "families": ["stream"], "backends": ["cpu"], "axes": ["n=4096,8192", "op=copy,triad"],
 "sampler": {"warmup_runs": 1, "min_samples": 3, "min_time": 0, "timeout": 0.05}, "repetitions": 2}
SUITE
"$memwall" --db ci.db ci --suite suite.json --baseline main --update-baseline --ceilings none --quiet >/dev/null ||
    fail "ci --update-baseline"
status=0
"$memwall" --db ci.db ci --suite suite.json --baseline main --shard 1/2 --ceilings none --quiet >out || status=$?
[ "$status" -le 1 ] || fail "ci --shard 1/2: exit status $status"
grep -q "only in the base run" out && fail "ci --shard reported the other shard's cases as missing"
[ "$(sql ci.db 'SELECT count(*) FROM cases WHERE run_id = 2')" = 4 ] || fail "ci --shard 1/2 did not measure half"

# slurm --suite: the array task's run (started here as Slurm would, without Slurm) measures the
# suite's own sweep, as ci stored it, and the task's ids are its tags.
"$memwall" slurm --suite suite.json --shards 2 --results slurm-results >/dev/null || fail "slurm --suite"
SLURM_ARRAY_JOB_ID=77 SLURM_ARRAY_TASK_ID=1 SLURM_JOB_ID=79 MEMWALL_LOCAL_DIR=$work/local \
    bash slurm-results/memwall-array.sbatch >/dev/null 2>&1 || fail "the array task's script"
task_db=slurm-results/shard-1.db
[ -s "$task_db" ] || fail "the task did not copy its database to the results directory"
whole_sweep=$(sql "$task_db" "SELECT json_remove(sweep, '$.shard') FROM runs")
[ "$whole_sweep" = "$(sql ci.db 'SELECT sweep FROM runs WHERE id = 1')" ] ||
    fail "slurm --suite measured another sweep than the suite's"
[ "$(sql "$task_db" "SELECT value FROM run_tags WHERE key = 'slurm_array_task_id'")" = 1 ] || fail "no task id tag"
[ "$(sql "$task_db" "SELECT value FROM run_tags WHERE key = 'suite'")" = tiny ] || fail "no suite tag"
[ "$(sql "$task_db" "SELECT max(n) FROM (SELECT count(DISTINCT rep) AS n FROM samples GROUP BY case_id)")" = 2 ] ||
    fail "the suite's repetitions were not kept"
echo "4 shards merged: $(cases_of merged.db | wc -l) cases, as one run"
