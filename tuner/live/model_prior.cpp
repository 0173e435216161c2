#include "tuner/live/model_prior.hpp"

#include <unordered_map>

namespace memwall {

CounterPrior model_counter_prior(const LiveTarget& target, const MemoryHierarchy& mh) {
    CounterPrior prior;
    if (!target.variant->model || target.variant->input_model) return prior;
    const std::size_t n = target.space.size();
    std::vector<std::vector<Counter>> counts(n);
    std::unordered_map<std::string, std::size_t> column;
    for (std::size_t id = 0; id < n; ++id) {
        counts[id] = target.variant->model(target.problem.merged(target.space.params(id)), mh);
        for (const Counter& c : counts[id])
            if (is_device_independent(c) && column.emplace(c.name, prior.names.size()).second)
                prior.names.push_back(c.name);
    }
    // A counter a configuration does not report (a level its tiles never reach) is zero there.
    prior.values.assign(n, std::vector<double>(prior.names.size(), 0.0));
    for (std::size_t id = 0; id < n; ++id)
        for (const Counter& c : counts[id])
            if (auto it = column.find(c.name); it != column.end() && is_device_independent(c))
                prior.values[id][it->second] = c.value;
    return prior;
}

}  // namespace memwall
