#include "cli/sbatch_script.hpp"

#include <algorithm>

namespace memwall::cli {

std::string shell_quoted(const std::string& text) {
    const bool safe = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
    });
    if (safe) return text;
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

namespace {

std::string header(const SlurmJob& job, const std::string& name, const std::string& log) {
    std::string s = "#!/bin/bash\n";
    s += "#SBATCH --job-name=" + shell_quoted(name) + "\n";
    s += "#SBATCH --ntasks=1\n";
    s += "#SBATCH --output=" + shell_quoted(job.results + "/logs/" + log) + "\n";
    s += "#SBATCH --open-mode=append\n";  // a requeued task's log follows its first attempt's
    for (const std::string& o : job.sbatch) s += "#SBATCH " + o + "\n";
    return s;
}

// The shell's settings and the variables both scripts use, after their #SBATCH lines.
std::string job_shell(const SlurmJob& job) {
    return "set -uo pipefail\nmemwall=" + shell_quoted(job.memwall) + "\nresults=" + shell_quoted(job.results) + "\n";
}

}  // namespace

std::string array_script(const SlurmJob& job) {
    std::string s = header(job, job.job_name, "shard-%a.out");
    s += "#SBATCH --array=0-" + std::to_string(job.shards - 1) + "\n";
    s += "#SBATCH --requeue\n";
    if (job.gpus_per_task > 0) s += "#SBATCH --gpus-per-task=" + std::to_string(job.gpus_per_task) + "\n";
    std::string run, resume;  // a resume takes the sweep from its run, Google Benchmark's flags from here
    for (const std::string& a : job.run_args) {
        run += " " + shell_quoted(a);
        if (a.rfind("--benchmark_", 0) == 0) resume += " " + shell_quoted(a);
    }
    s += job_shell(job) + R"(shard=$SLURM_ARRAY_TASK_ID
local_dir=${MEMWALL_LOCAL_DIR:-${TMPDIR:-/tmp}}/memwall-$SLURM_ARRAY_JOB_ID-$shard
db=$local_dir/shard-$shard.db
mkdir -p "$local_dir"
# Requeued onto another node: resume from the shard's last copy.
if [ ! -s "$db" ] && [ -s "$results/shard-$shard.db" ]; then cp "$results/shard-$shard.db" "$db"; fi
copy_out() {
    [ -s "$db" ] || return 0
    cp "$db" "$results/.shard-$shard.db.part" && mv -f "$results/.shard-$shard.db.part" "$results/shard-$shard.db"
}
trap copy_out EXIT
# Slurm's SIGTERM (scancel, preemption) goes to memwall too, which stores the case in flight's
# predecessors and ends its run as interrupted; the shell waits for it, then copies the database.
trap 'echo "shard $shard: terminated"' TERM
if [ -s "$db" ]; then
    "$memwall" --db "$db" run --resume --quiet)" +
         resume + R"(
else
    "$memwall" --db "$db" run)" +
         run + R"( --quiet --shard "$shard/)" + std::to_string(job.shards) + R"("
fi
)";
    return s;
}

std::string merge_script(const SlurmJob& job) {
    std::string s = header(job, job.job_name + "-merge", "merge.out");
    s += job_shell(job) + R"(shards=()
for i in $(seq 0 )" +
         std::to_string(job.shards - 1) +
         R"(); do
    if [ -s "$results/shard-$i.db" ]; then shards+=("$results/shard-$i.db"); else echo "shard $i: no database" >&2; fi
done
[ ${#shards[@]} -gt 0 ] || exit 1
"$memwall" merge "$results/merged.db" "${shards[@]}"
)";
    return s;
}

}  // namespace memwall::cli
