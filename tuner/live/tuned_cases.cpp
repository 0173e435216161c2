#include "tuner/live/tuned_cases.hpp"

#include <set>

#include "core/errors.hpp"
#include "harness/measure.hpp"
#include "results/tuning_store.hpp"
#include "tuner/live/live_tuning.hpp"

namespace memwall {

TunedCases apply_tuned(const std::vector<PlannedCase>& cases, const Store& store, const DeviceSpec& model,
                       bool include_abandoned) {
    TunedCases out;
    std::set<CaseKey> seen;
    for (PlannedCase c : cases) {
        if (!c.variant->tunables.empty()) {
            const Backend b = c.variant->backend;
            const auto best =
                best_tuned_config(store, tuning_device(b, &model), std::string(to_string(b)), c.family->name,
                                  c.variant->name, c.problem.canonical(), include_abandoned);
            if (best) {
                c.config = best->config;
                ++out.tuned;
            } else {
                out.untuned.push_back(c.name());
            }
        }
        if (seen.insert(key_of(c)).second) out.cases.push_back(std::move(c));
    }
    return out;
}

void check_tuned_overrides(const std::vector<SweepPlan::Member>& members, const std::vector<std::string>& overrides) {
    for (const auto& o : overrides) {
        const std::string name = split_override(o).first;
        for (const auto& m : members)
            for (const auto& t : m.variant->tunables)
                if (t.name == name)
                    throw UsageError("--axis " + name + ": --tuned takes the tunables from stored tuning sessions");
    }
}

}  // namespace memwall
