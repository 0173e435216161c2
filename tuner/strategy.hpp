// Search strategies by name: exhaustive, random (without replacement), anneal (simulated
// annealing), genetic, and guided (counter-guided, model-based). Each is reproducible from
// its seed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/tune.hpp"

namespace memwall {

const std::vector<std::string>& strategy_names();

// Throws UsageError for an unknown name (the message lists the known ones).
std::unique_ptr<Strategy> make_strategy(std::string_view name, const TuningSpace& space, std::uint64_t seed);

}  // namespace memwall
