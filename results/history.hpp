// A case's trend across the runs of a database, with the change points of its medians.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "results/store.hpp"
#include "stats/change_points.hpp"
#include "stats/statistics.hpp"

namespace memwall {

// Which cases and runs. Empty fields match everything.
struct HistoryFilter {
    std::string family, variant, backend;
    std::string problem, config;              // substrings of the labels ("seq_q=1024", "Br=32")
    std::map<std::string, std::string> tags;  // runs carrying all of these (e.g. branch=main)
    std::size_t last = 0;                     // only the newest `last` runs that pass the tags (0: all)
};

struct HistoryPoint {
    std::int64_t run_id = 0;
    std::string started_at;
    std::string branch, commit;  // tags "branch" and "commit" (commit: else the run's revision)
    double median = 0;           // seconds
    Interval ci;                 // 95% interval of the median
    std::size_t n = 0;
};

struct CaseHistory {
    CaseKey key;
    std::vector<HistoryPoint> points;  // oldest run first; runs where the case was timed
    std::vector<ChangePoint> changes;  // indexes into points
};

// Cases matching the filter, in key order, each with its points in run order and its change
// points (the per-point error is the half-width of its median's interval over 1.96).
std::vector<CaseHistory> load_history(const Store& store, const HistoryFilter& filter, const ChangeOptions& opt = {});

// `memwall history --format json` ("format": "memwall-history/1"): the database, the filter, the
// change-point rule, and per case its key, its points (oldest run first: run, started_at,
// branch, commit, median and its 95% interval in seconds, n) and its change points (the run
// where the new level starts, the levels before and after, their ratio and the step in
// standard errors).
void write_history_json(const std::vector<CaseHistory>& histories, const std::string& database,
                        const HistoryFilter& filter, const ChangeOptions& opt, std::ostream& os);

}  // namespace memwall
