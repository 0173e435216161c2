// The two sbatch scripts of `memwall slurm`: an array job with a task per shard of a sweep, and
// the job that merges the shards' databases once every task has ended.
#pragma once

#include <string>
#include <vector>

namespace memwall::cli {

struct SlurmJob {
    std::string memwall;                // the executable the tasks run (absolute)
    std::vector<std::string> run_args;  // `memwall run`'s sweep arguments, without --db or --shard
    std::size_t shards = 1;             // array tasks
    std::string results;                // shared directory: shard-I.db, merged.db, logs/ (absolute)
    std::string job_name = "memwall";
    int gpus_per_task = 0;            // 0: no --gpus-per-task line
    std::vector<std::string> sbatch;  // more #SBATCH options, as typed (--partition=gpu, --time=1:00:00)
};

// The array job. Each task measures its shard into a database on node-local disk
// ($MEMWALL_LOCAL_DIR, else $TMPDIR, else /tmp), copies it to results/shard-I.db when it ends
// (a rename, so the merge never reads half a copy), and with --requeue a preempted or requeued
// task resumes its shard (`run --resume`) from the node-local database, or from the last copy
// when it lands on another node.
std::string array_script(const SlurmJob& job);

// The merge job (submitted with --dependency=afterany on the array): `memwall merge` of the
// shards' copies into results/merged.db.
std::string merge_script(const SlurmJob& job);

// `text` quoted for bash: as it is when it is safe unquoted, else in single quotes.
std::string shell_quoted(const std::string& text);

}  // namespace memwall::cli
