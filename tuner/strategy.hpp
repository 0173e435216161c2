// Search strategies by name: exhaustive, random (without replacement), anneal (simulated
// annealing), genetic, guided (counter-guided, model-based, learning online only) and
// guided-prior (guided also given a CounterPrior: device-independent counters of every
// configuration before measuring). Each is reproducible from its seed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/strategies/counter_prior.hpp"
#include "tuner/tune.hpp"

namespace memwall {

const std::vector<std::string>& strategy_names();

// Whether the strategy `name` reads a CounterPrior.
bool uses_prior(std::string_view name);
// The strategy `name` searches exactly as, seed for seed, when its prior is empty: guided for
// guided-prior, `name` itself for strategies that read no prior.
std::string_view without_prior(std::string_view name);

// Throws UsageError for an unknown name (the message lists the known ones), or for guided-prior
// without a prior. `prior` is read by guided-prior only (it must cover every configuration of
// `space`); with an empty one (a recording without device-independent counters) it searches as
// guided does.
std::unique_ptr<Strategy> make_strategy(std::string_view name, const TuningSpace& space, std::uint64_t seed,
                                        const CounterPrior* prior = nullptr);

}  // namespace memwall
