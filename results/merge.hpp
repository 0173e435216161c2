// `memwall merge`: memwall databases (the shards of a split sweep, or any others) joined into one.
// A run of a whole sweep is copied as it is; the runs of a sweep's shards that share its device,
// build and Slurm array job become one run, so every reader (show, compare, history, export,
// plot, the explorer) names the sweep as one run. Each shard's host, times, status, command, Slurm
// ids and ceilings are kept as the merged run's tags `shard.<I>.*`. Merging is idempotent: a case
// already there, identical, is passed over; one that differs is a conflicting duplicate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace memwall {

struct MergedRun {
    std::int64_t id = 0;  // in the output
    std::string device;
    std::string shards;       // "2 of 4 shards" for a split sweep; empty for a whole run
    std::size_t added = 0;    // cases new to the output
    std::size_t present = 0;  // cases the output already held, identical
};

struct MergeResult {
    std::vector<MergedRun> runs;  // each run the sources touched, in the output's order
    // One line for each sweep whose shards were measured on different devices (they stay apart),
    // and for each source with tuning sessions or tune-eval tables, which are not merged.
    std::vector<std::string> notes;
};

// Merges `sources` into the database `out` (created when missing). Everything is written into a
// copy beside `out` that replaces it only once the merge is whole, so a refusal leaves its bytes
// as they were: InputError for a source or output that is not a memwall database, is of a newer
// schema (a source of an older one too: open it for writing first, which migrates it), or is
// damaged, and for a conflicting duplicate (a case of the same identity, run and
// device stored with other results); UsageError for a source that is the output itself.
MergeResult merge_databases(const std::string& out, const std::vector<std::string>& sources);

}  // namespace memwall
