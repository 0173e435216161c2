// Factories of the built-in strategies, and what they share.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <random>

#include "tuner/strategies/prior.hpp"
#include "tuner/tune.hpp"

namespace memwall {

std::unique_ptr<Strategy> make_exhaustive();
std::unique_ptr<Strategy> make_random(const TuningSpace& space, std::uint64_t seed);
std::unique_ptr<Strategy> make_anneal(const TuningSpace& space, std::uint64_t seed);
std::unique_ptr<Strategy> make_genetic(const TuningSpace& space, std::uint64_t seed);
// Without a prior (null or empty) guided learns online only.
std::unique_ptr<Strategy> make_guided(const TuningSpace& space, std::uint64_t seed, const Prior* prior);

namespace search {

using Rng = std::mt19937_64;

// A configuration's time for comparisons: failures and unevaluated ones are infinitely slow.
inline double fitness(const Evaluation* e) {
    return e && e->ok() ? e->seconds : std::numeric_limits<double>::infinity();
}

// A uniformly random configuration not yet evaluated, or nullopt when none is left.
std::optional<std::size_t> random_unevaluated(const History& h, Rng& rng);

// A random Hamming-1 neighbour of `config`: one parameter changes, to the adjacent value
// (half of the time) or to any other value; nullopt when no parameter can change.
std::optional<std::size_t> random_neighbour(const TuningSpace& space, std::size_t config, Rng& rng);

}  // namespace search
}  // namespace memwall
