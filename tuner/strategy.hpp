// Search strategies by name: exhaustive, random (without replacement), anneal (simulated
// annealing), genetic, guided (counter-guided and model-based: it learns online from what it
// measured, and starts from a Prior where there is one: the device-independent counters of every
// configuration, other devices' recordings of the same kernel) and guided-online (the same, never
// given a prior). Each is reproducible from its seed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/strategies/prior.hpp"
#include "tuner/tune.hpp"

namespace memwall {

const std::vector<std::string>& strategy_names();

// Whether the strategy `name` reads a Prior.
bool uses_prior(std::string_view name);
// The strategy `name` searches exactly as, seed for seed, when its prior is empty: guided for
// guided-online for guided, `name` itself for strategies that read no prior.
std::string_view without_prior(std::string_view name);

// Throws UsageError for an unknown name (the message lists the known ones). `prior` is read by
// guided only (it must cover every configuration of `space`); without one, or with an empty one
// (no counters, no other device), guided searches as guided-online does.
std::unique_ptr<Strategy> make_strategy(std::string_view name, const TuningSpace& space, std::uint64_t seed,
                                        const Prior* prior = nullptr);

}  // namespace memwall
