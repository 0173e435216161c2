// tune-eval tables in the results database (tune_evals, tune_eval_spaces, tune_eval_scores),
// written in one transaction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "results/store.hpp"
#include "results/tune_eval_table.hpp"

namespace memwall {

struct TuneEvalInfo {
    std::string created_at;  // set by save_tune_eval when empty
    std::string host, git_revision, command_line, memwall_version;
};

// Returns the new tune-eval id. Throws InputError when two spaces share a name (the file name
// keys a space within one table).
std::int64_t save_tune_eval(Store& store, const TuneEvalTable& table, const TuneEvalInfo& info);

// The stored table, spaces and strategies in name order, mean scores recomputed over the
// spaces; nullopt for an unknown id.
std::optional<TuneEvalTable> load_tune_eval(const Store& store, std::int64_t id);

}  // namespace memwall
