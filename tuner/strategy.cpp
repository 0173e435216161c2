#include "tuner/strategy.hpp"

#include "core/errors.hpp"
#include "tuner/strategies/strategies.hpp"

namespace memwall {

const std::vector<std::string>& strategy_names() {
    static const std::vector<std::string> names{"exhaustive", "random", "anneal", "genetic", "guided-online", "guided"};
    return names;
}

bool uses_prior(std::string_view name) { return name == "guided"; }

std::string_view without_prior(std::string_view name) { return uses_prior(name) ? "guided-online" : name; }

std::unique_ptr<Strategy> make_strategy(std::string_view name, const TuningSpace& space, std::uint64_t seed,
                                        const Prior* prior) {
    if (name == "exhaustive") return make_exhaustive();
    if (name == "random") return make_random(space, seed);
    if (name == "anneal") return make_anneal(space, seed);
    if (name == "genetic") return make_genetic(space, seed);
    if (name == "guided-online") return make_guided(space, seed, nullptr);
    if (name == "guided") return make_guided(space, seed, prior);
    std::string known;
    for (const auto& n : strategy_names()) known += (known.empty() ? "" : ", ") + n;
    throw UsageError("unknown strategy '" + std::string(name) + "' (strategies: " + known + ")");
}

}  // namespace memwall
