#include "tuner/strategies/counter_prior.hpp"

#include <cmath>
#include <unordered_map>

#include "tuner/additive_model.hpp"

namespace memwall {

namespace {

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

// CUPTI sums counted per instruction or per request of the kernel's code: fixed by the compiled
// code and its access pattern, whatever the clocks, memory or load of the device. Sector counts
// at L1 are requested sectors; the importers may have renamed them to bytes.
bool is_code_count(const std::string& name) {
    if (!name.ends_with(".sum")) return false;
    return contains(name, "inst_executed") || name.starts_with("l1tex__t_requests_pipe_lsu") ||
           name.starts_with("l1tex__t_sectors_pipe_lsu") || name.starts_with("l1tex__t_bytes_pipe_lsu") ||
           name.starts_with("l1tex__data_pipe_lsu_wavefronts");
}

}  // namespace

bool is_device_independent(const Counter& c) {
    // What a configuration allocates is no amount of work: larger tiles' workspace tells the
    // prior nothing of their time (flash's ranked its slowest Bc first by it).
    if (c.name == counters::kWorkspace) return false;
    switch (c.source) {
        case CounterSource::emu:
        case CounterSource::model: return true;
        case CounterSource::perf: return c.name == "instructions";
        case CounterSource::cupti: return is_code_count(c.name);
        case CounterSource::timer: return false;
    }
    return false;
}

CounterPrior counter_prior_from(const RecordedSpace& recorded) {
    CounterPrior prior;
    std::unordered_map<std::string, std::size_t> column;
    for (const Evaluation& e : recorded.results)
        for (const Counter& c : e.counters)
            if (is_device_independent(c) && column.emplace(c.name, prior.names.size()).second)
                prior.names.push_back(c.name);
    if (prior.empty()) return prior;

    const std::size_t n = recorded.space.size(), k = prior.names.size();
    constexpr double kMissing = -1;  // counts are never negative
    prior.values.assign(n, std::vector<double>(k, kMissing));
    for (std::size_t id = 0; id < n; ++id)
        for (const Counter& c : recorded.results[id].counters)
            if (auto it = column.find(c.name); it != column.end() && is_device_independent(c))
                prior.values[id][it->second] = c.value;

    const std::vector<std::size_t> levels = recorded.space.levels();
    for (std::size_t j = 0; j < k; ++j) {
        std::vector<const Config*> rows;
        std::vector<double> y;
        for (std::size_t id = 0; id < n; ++id)
            if (prior.values[id][j] != kMissing) {
                rows.push_back(&recorded.space.config(id));
                y.push_back(std::log1p(prior.values[id][j]));
            }
        if (rows.size() == n) continue;
        AdditiveModel model(levels, kCountPenalties);
        model.fit(rows, y);
        for (std::size_t id = 0; id < n; ++id)
            if (prior.values[id][j] == kMissing)
                prior.values[id][j] = std::max(0.0, std::expm1(model.predict(recorded.space.config(id))));
    }
    return prior;
}

}  // namespace memwall
