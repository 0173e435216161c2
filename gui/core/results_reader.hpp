// Reads a memwall database for the explorer: runs with their ceilings, and cases page by page
// (so a large run is shown while it loads). Opens read-only through Store::open, which refuses
// missing, foreign and newer files with one-line InputError messages.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gui/core/case_data.hpp"
#include "results/store.hpp"
#include "stats/bootstrap.hpp"

namespace memwall::gui {

class ResultsReader {
  public:
    explicit ResultsReader(const std::string& path);

    const Store& store() const { return store_; }
    // Oldest first, with ceilings and case counts.
    std::vector<RunRow> runs() const;
    // Cases of run `run` with id > `after_id`, at most `limit` (0: all), in the order measured,
    // placed on `ceilings`.
    std::vector<CaseRow> cases(std::int64_t run, const Ceilings& ceilings, std::int64_t after_id = 0,
                               std::size_t limit = 0) const;

    // Every sample of run `run`'s cases by case id, as CaseRecord::samples holds them: what the
    // compare rule needs, read in one range scan rather than with the cases.
    std::unordered_map<std::int64_t, Repetitions> samples(std::int64_t run) const;
    // Every counter of run `run`'s cases by case id.
    std::unordered_map<std::int64_t, std::vector<Counter>> counters(std::int64_t run) const;

  private:
    Store store_;
};

}  // namespace memwall::gui
